# The reference catalogue: every other language has exactly these messages, each with the same
# variables. Piece letters (B S D L R Q F H), squares (A1-D4) and the word `quarto` in typed
# moves are the notation and stay as they are in every language.

## Traits and their values

trait-size = size
trait-color = colour
trait-shape = shape
trait-fill = fill
value-big = big
value-small = small
value-dark = dark
value-light = light
value-round = round
value-square = square
value-solid = solid
value-hollow = hollow

## Variants

variant-quads = Quads
variant-classic = classic Quarto
variant-traits = only { $traits } count
variant-squares-off = no 2×2 squares
variant-squares-on = with 2×2 squares
variant-announce = "Quarto!" must be announced

## quads rules

rules-title = The rules: { $variant }
rules-material = A 4×4 board and 16 pieces. Every piece is { $size }, { $color }, { $shape } and { $fill }: each trait has two values, and each of the 16 combinations is one piece. The pieces belong to nobody: both players build with the same set.
rules-turn = The first player picks a piece and hands it to the other, who places it. From then on a turn is always two steps: put the piece you were handed on any empty square, then choose one of the pieces still off the board and hand it to your opponent. You never choose the piece you place, and you cannot pass.
rules-shapes-quads = Winning shapes: the 4 rows, the 4 columns, the 2 diagonals and the 9 blocks of 2×2 neighbouring squares (19 in all).
rules-shapes-classic = Winning shapes: the 4 rows, the 4 columns and the 2 diagonals (10 in all).
rules-traits-all = A shape wins when its four pieces have at least one value in common: all big, or all hollow, and so on. The other traits may differ.
rules-traits-some = Only these traits count: { $traits }. A shape wins when its four pieces agree on one of them; pieces that agree only on another trait do not win.
rules-win-auto = Whoever places the fourth piece of a winning shape wins at once, whoever placed the other three.
rules-win-announce = The "Quarto!" rule: completing a winning shape is not enough, you must announce it as you place the piece. If you do not and hand over a piece, your opponent may claim the win before placing that piece, and then wins instead. If neither player claims it, that shape no longer counts.
rules-draw = If all 16 pieces are on the board and nobody has won, the game is a draw.
rules-notation = Notation: columns A to D from the left, rows 1 to 4 from the bottom (A1 is the bottom left corner). A piece is four letters: B or S (big, small), D or L (dark, light), R or Q (round, square), F or H (solid, hollow). A turn is written as the square and the piece given: D2 BLQF places on D2 and gives BLQF.
rules-tip = A tip: the give decides the game. Before you hand a piece over, look for a square where it would complete a shape.

## quads play: players and turns

player-you = You
player-one = Player 1
player-two = Player 2
player-level = Level { $level }
player-solver = The solver
status-opening = { $player }: choose the first piece to give
status-place = { $player }: place { $piece }
status-give = { $player }: choose the piece to give
status-thinking = { $player } is thinking…
status-claimable = The last piece completed a shape that was not announced: F2 claims it.
title = Quads Arena: { $variant }

## quads play: panels

panel-board = Board
panel-hand = In hand
panel-give = Pieces to give
panel-moves = Moves
panel-legend = Legend
panel-clocks = Clocks
panel-position = Position
hand-none = nothing
legend-size = tall (2 rows) = big, short = small
legend-color = dark / light
legend-shape = ● ○ round, ■ □ square
legend-fill = ● ■ solid, ○ □ hollow
legend-letters = letters: B/S D/L R/Q F/H
quarto-button = Quarto!

## quads play: keys

keys-place = Arrows: square · Enter: place · type a move (D2 BLQF) · Esc: cancel
keys-give = Arrows: piece · Enter: give · F2: Quarto! · Esc: back
keys-common = Ctrl-Z: undo · F1: rules · Ctrl-Q: quit
keys-end = Enter or Ctrl-Q: leave

## quads play: what happened

msg-illegal = Not allowed: { $reason }
msg-unreadable = I cannot read “{ $text }”: write a square and a piece, like D2 BLQF, or “quarto”.
msg-undone = Taken back: { $count ->
    [one] one move
   *[other] { $count } moves
}.
msg-nothing-to-undo = There is nothing to take back yet.
msg-no-undo-humans = Undo is for games against a bot.
msg-announced = { $who ->
    [you] You announce “Quarto!”
   *[other] { $player } announces “Quarto!”
}
msg-claimed = { $who ->
    [you] You claim the shape your opponent missed: “Quarto!”
   *[other] { $player } claims the shape the other player missed: “Quarto!”
}
msg-played = { $player } played { $move }.
msg-chosen = { $square } chosen: now the piece to give, or Esc.
msg-bot-failed = { $player } lost by forfeit: { $detail }
msg-saved = Game saved in { $path }.

reason-game-over = the game is over
reason-nothing-to-place = no piece is in hand yet: the first move is a give
reason-must-place = place the piece in hand first
reason-occupied = square { $square } is taken
reason-unavailable = piece { $piece } is not available
reason-must-give = the game goes on, so you must give a piece
reason-must-not-give = this placement ends the game: give nothing
reason-no-claims = “Quarto!” is only announced under the announcement rule
reason-false-claim = there is no completed shape to claim

## quads play: the end

end-win = { $who ->
    [you] You win!
   *[other] { $player } wins!
}
end-draw = A draw: the board is full.
end-timeout = { $player } ran out of time.
end-forfeit = { $player } lost by forfeit ({ $reason }).
end-decided = Decided by move { $number }, { $move } by { $player }: before it the game was { $before }, after it { $after }.
end-decided-before = No move from { $empty } empty squares on changed the outcome: it was already decided.
end-decided-unjudged = The game ended before the solver's window ({ $empty } empty squares).
end-decided-forfeit = Decided by the forfeit, not on the board.
value-win = won
value-draw = drawn
value-loss = lost
end-shape = The winning shape is marked on the board.

## quads puzzle

level-easy = easy
level-medium = medium
level-hard = hard
puzzle-title = Puzzle of { $date } ({ $level })
puzzle-task = { $player } to play and win in { $placements ->
    [one] one placement
   *[other] { $placements } placements
}.
puzzle-exactly-one = Exactly one move wins: the placement and the piece given.
puzzle-tempting = { $count ->
    [0] No move that looks safe loses.
    [one] One move that looks safe loses.
   *[other] { $count } moves that look safe lose.
}
puzzle-first = The first player
puzzle-second = The second player
puzzle-solution = Solution: { $moves }
puzzle-right = { $move } is the solution.
puzzle-wrong = { $move } is not the solution.
puzzle-illegal = { $move } is not a legal move here: { $reason }
puzzle-play-won = Solved: you won in { $placements ->
    [one] one placement
   *[other] { $placements } placements
}.
puzzle-play-lost = Not this one: the win is gone. The solution was { $moves }.

## The play page in a browser (quads serve)

nav-leaderboard = leaderboard
nav-play = play
nav-final = final
nav-host = host
nav-me = me ({ $name })
nav-log-in = log in
nav-sign-up = sign up
nav-log-out = log out
web-language = Language
web-play = Play
web-intro = Play a game of Quads or classic Quarto: against one of five levels, with a friend on this device, or today's puzzle.
web-game = Game
web-against-level = against level { $level }
web-random = (random)
web-perfect = (perfect)
web-two = two players on this device
web-puzzle = the puzzle of the day
web-rules = Rules
web-rules-quads = Quads (rows, columns, diagonals and 2×2 squares)
web-rules-classic = classic Quarto
web-rules-announce = classic Quarto, wins called “Quarto!”
web-level-begins = let the level or the bot begin
web-start = start
web-title-level = Against level { $level }
web-title-bot = Against { $name }'s bot
web-against-bot = against { $name }'s bot
web-bots = Entrants' bots
web-bot-thinking = { $name }'s bot is thinking; the page shows its move once it is made.
web-look-again = look again
web-bot-forfeit = { $name }'s bot lost by a fault of its own ({ $why }): you win.
web-clock = clock
web-no-clock = no clock
web-clock-of = { $player }: { $time }
web-flagged = { $who ->
    [you] Your time ran out: you lose.
   *[other] { $player } ran out of time and loses.
}
web-title-two = Two players
web-title-puzzle = The puzzle of { $date }
web-rules-now = Rules: { $rules }.
web-address = This game's address, to come back to it or share it:
web-board = The board
web-board-place = The board: choose where { $piece } goes
web-give = The piece to give
web-typed = or type the move
web-play-button = play
web-no-moves = None yet.
web-new-game = a new game
web-status-place = { $player }: place { $piece }, then give a piece.
web-lose = You lose.
web-solved = Solved.
web-not-solved = Not solved: the win was there. Try again tomorrow, or start it again.
web-moved-on = The game has moved on since: look again.
web-not-yours = It is not your move.
web-choose = Choose a square and a piece, or type the move.
web-view-text = text mode, for screen readers
web-view-board = the board, drawn
web-rows = The board, row by row
web-row = Row { $row }: { $squares }.
web-empty = empty
web-in-hand = In hand: { $piece }.
web-left = Pieces left to give: { $pieces }.
web-your-move = Your move: the square and the piece to give, like A2 BDRF
web-claimable = The last piece completed a shape that was not announced: type quarto to claim it.
web-last = Last move: { $turn }
web-turn-give = { $who ->
    [you] You gave { $piece }.
   *[other] { $player } gave { $piece }.
}
web-turn-place = { $who ->
    [you] You placed { $placed } on { $square } and gave { $piece }.
   *[other] { $player } placed { $placed } on { $square } and gave { $piece }.
}
web-turn-end = { $who ->
    [you] You placed { $placed } on { $square }.
   *[other] { $player } placed { $placed } on { $square }.
}
web-turn-quarto = { $who ->
    [you] You placed { $placed } on { $square } and called “Quarto!”.
   *[other] { $player } placed { $placed } on { $square } and called “Quarto!”.
}
web-turn-claim = { $who ->
    [you] You claimed the shape left unannounced: “Quarto!”.
   *[other] { $player } claimed the shape left unannounced: “Quarto!”.
}
web-review = The solver's review
web-review-link = the solver's review of this game
web-download = download the game (games.jsonl)
web-back = back to the game
web-col-who = who
web-col-move = move
web-col-word = the solver's word
web-unjudged = not judged (more than { $empty } empty squares)
web-kept = kept: { $value }
web-mistake = a mistake: { $before } before it, { $after } after
web-missed-win = it missed a win
web-better = { $move } kept the value
web-try-again = try again from here
web-rules-link = the rules
web-variants = The variants
