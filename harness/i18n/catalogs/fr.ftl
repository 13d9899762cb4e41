# Le catalogue français : les mêmes messages que en.ftl, avec les mêmes variables. Les lettres
# des pièces (B S D L R Q F H), les cases (A1-D4) et le mot `quarto` dans les coups tapés
# forment la notation et ne se traduisent pas.

## Caractéristiques et leurs valeurs

trait-size = taille
trait-color = couleur
trait-shape = forme
trait-fill = remplissage
value-big = grande
value-small = petite
value-dark = foncée
value-light = claire
value-round = ronde
value-square = carrée
value-solid = pleine
value-hollow = creuse

## Variantes

variant-quads = Quads
variant-classic = Quarto classique
variant-traits = uniquement { $traits }
variant-squares-off = sans carrés 2×2
variant-squares-on = avec carrés 2×2
variant-announce = annonce « Quarto! » obligatoire

## quads rules

rules-title = Les règles : { $variant }
rules-material = Un plateau de 4×4 cases et 16 pièces. Chaque pièce est { $size }, { $color }, { $shape } et { $fill } : chaque caractéristique a deux valeurs, et chacune des 16 combinaisons correspond à une pièce. Les pièces n'appartiennent à personne : les deux joueurs construisent avec le même jeu.
rules-turn = Le premier joueur choisit une pièce et la donne à l'autre, qui la pose. Ensuite, un tour se joue toujours en deux temps : pose la pièce qu'on t'a donnée sur n'importe quelle case libre, puis choisis une des pièces encore hors du plateau et donne-la à ton adversaire. Tu ne choisis jamais la pièce que tu poses, et tu ne peux pas passer ton tour.
rules-shapes-quads = Figures gagnantes : les 4 rangées, les 4 colonnes, les 2 diagonales et les 9 blocs de 2×2 cases voisines (19 en tout).
rules-shapes-classic = Figures gagnantes : les 4 rangées, les 4 colonnes et les 2 diagonales (10 en tout).
rules-traits-all = Une figure gagne quand ses quatre pièces ont au moins une valeur en commun : toutes grandes, toutes creuses, etc. Les autres caractéristiques peuvent différer.
rules-traits-some = Seules ces caractéristiques comptent : { $traits }. Une figure gagne quand ses quatre pièces ont l'une d'elles en commun ; des pièces qui ne partagent qu'une autre caractéristique ne gagnent pas.
rules-win-auto = Le joueur qui pose la quatrième pièce d'une figure gagnante l'emporte aussitôt, quel que soit celui qui a posé les trois autres.
rules-win-announce = La règle du « Quarto! » : compléter une figure gagnante ne suffit pas, il faut l'annoncer en posant la pièce. Si tu ne le fais pas et que tu donnes une pièce, ton adversaire peut réclamer la victoire avant de poser cette pièce, et c'est alors lui qui gagne. Si personne ne la réclame, cette figure ne compte plus.
rules-draw = Si les 16 pièces sont sur le plateau sans que personne ait gagné, la partie est nulle.
rules-notation = Notation : colonnes A à D en partant de la gauche, rangées 1 à 4 en partant du bas (A1 est le coin inférieur gauche). Une pièce s'écrit en quatre lettres, les initiales anglaises de ses valeurs : B ou S (grande, petite), D ou L (foncée, claire), R ou Q (ronde, carrée), F ou H (pleine, creuse). Un tour s'écrit avec la case puis la pièce donnée : D2 BLQF pose en D2 et donne BLQF.
rules-tip = Un conseil : c'est la pièce que tu donnes qui décide de la partie. Avant de la donner, cherche une case où elle compléterait une figure.

## quads play : joueurs et tours

player-you = Toi
player-one = Joueur 1
player-two = Joueur 2
player-level = Niveau { $level }
player-solver = Le solveur
status-opening = { $player } : choisis la première pièce à donner
status-place = { $player } : pose { $piece }
status-give = { $player } : choisis la pièce à donner
status-thinking = { $player } réfléchit…
status-claimable = La dernière pièce a complété une figure non annoncée : F2 la réclame.
title = Quads Arena : { $variant }

## quads play : panneaux

panel-board = Plateau
panel-hand = En main
panel-give = Pièces à donner
panel-moves = Coups
panel-legend = Légende
panel-clocks = Pendules
panel-position = Position
hand-none = aucune
legend-size = haute (2 lignes) = grande, basse = petite
legend-color = foncée / claire
legend-shape = ● ○ ronde, ■ □ carrée
legend-fill = ● ■ pleine, ○ □ creuse
legend-letters = lettres : B/S grande/petite, D/L foncée/claire, R/Q ronde/carrée, F/H pleine/creuse
quarto-button = Quarto!

## quads play : touches

keys-place = Flèches : case · Enter : poser · tape un coup (D2 BLQF) · Esc : annuler
keys-give = Flèches : pièce · Enter : donner · F2 : Quarto! · Esc : retour
keys-common = Ctrl-Z : annuler · F1 : règles · Ctrl-Q : quitter
keys-end = Enter ou Ctrl-Q : quitter

## quads play : ce qui s'est passé

msg-illegal = Coup interdit : { $reason }
msg-unreadable = Je ne comprends pas « { $text } » : écris une case et une pièce, comme D2 BLQF, ou « quarto ».
msg-undone = { $count ->
    [one] { $count } coup annulé.
   *[other] { $count } coups annulés.
}
msg-nothing-to-undo = Il n'y a encore rien à annuler.
msg-no-undo-humans = L'annulation n'est possible que dans une partie contre un bot.
msg-announced = { $who ->
    [you] Tu annonces « Quarto! »
   *[other] { $player } annonce « Quarto! »
}
msg-claimed = { $who ->
    [you] Tu réclames la figure que l'adversaire n'a pas vue : « Quarto! »
   *[other] { $player } réclame la figure que l'adversaire n'a pas vue : « Quarto! »
}
msg-played = { $player } a joué { $move }.
msg-chosen = Case { $square } choisie : maintenant la pièce à donner, ou Esc.
msg-bot-failed = { $player } perd par forfait : { $detail }
msg-saved = Partie enregistrée dans { $path }.

reason-game-over = la partie est terminée
reason-nothing-to-place = aucune pièce n'est encore en main : le premier coup consiste à donner une pièce
reason-must-place = pose d'abord la pièce que tu as en main
reason-occupied = la case { $square } est occupée
reason-unavailable = la pièce { $piece } n'est pas disponible
reason-must-give = la partie continue, tu dois donc donner une pièce
reason-must-not-give = cette pose termine la partie : ne donne rien
reason-no-claims = on n'annonce « Quarto! » qu'avec la règle de l'annonce
reason-false-claim = il n'y a aucune figure complète à réclamer

## quads play : la fin

end-win = { $who ->
    [you] Tu as gagné !
   *[other] { $player } gagne !
}
end-draw = Partie nulle : le plateau est plein.
end-timeout = { $player } n'a plus de temps.
end-forfeit = { $player } perd par forfait ({ $reason }).
end-decided = Décidée au coup { $number } ({ $move }, { $player }) : avant, la partie était { $before } ; après, { $after }.
end-decided-before = À partir de { $empty } cases vides, aucun coup n'a changé l'issue : elle était déjà jouée.
end-decided-unjudged = La partie s'est terminée avant l'entrée en jeu du solveur ({ $empty } cases vides).
end-decided-forfeit = Décidée par forfait, pas sur le plateau.
value-win = gagnée
value-draw = nulle
value-loss = perdue
end-shape = La figure gagnante est indiquée sur le plateau.

## quads puzzle

level-easy = facile
level-medium = moyen
level-hard = difficile
puzzle-title = Problème du { $date } ({ $level })
puzzle-task = { $player } joue et gagne en { $placements ->
    [one] { $placements } pose
   *[other] { $placements } poses
}.
puzzle-exactly-one = Un seul coup gagne, pose et pièce donnée comprises.
puzzle-tempting = { $count ->
    [0] Aucun coup d'apparence sûre ne perd.
    [one] Un coup d'apparence sûre perd.
   *[other] { $count } coups d'apparence sûre perdent.
}
puzzle-first = Le premier joueur
puzzle-second = Le second joueur
puzzle-solution = Solution : { $moves }
puzzle-right = { $move } est la solution.
puzzle-wrong = { $move } n'est pas la solution.
puzzle-illegal = { $move } n'est pas un coup légal ici : { $reason }
puzzle-play-won = Résolu : tu as gagné en { $placements ->
    [one] { $placements } pose
   *[other] { $placements } poses
}.
puzzle-play-lost = Raté : la victoire t'a échappé. La solution était { $moves }.

## La page de jeu dans le navigateur (quads serve)

nav-leaderboard = classement
nav-play = jouer
nav-final = finale
nav-host = organisateur
nav-me = moi ({ $name })
nav-log-in = se connecter
nav-sign-up = s'inscrire
nav-log-out = se déconnecter
web-language = Langue
web-play = Jouer
web-intro = Joue une partie de Quads ou de Quarto classique : contre l'un des cinq niveaux, avec un ami sur cet appareil, ou le casse-tête du jour.
web-game = Partie
web-against-level = contre le niveau { $level }
web-random = (au hasard)
web-perfect = (parfait)
web-two = deux joueurs sur cet appareil
web-puzzle = le casse-tête du jour
web-rules = Règles
web-rules-quads = Quads (lignes, colonnes, diagonales et carrés 2×2)
web-rules-classic = Quarto classique
web-rules-announce = Quarto classique, victoires annoncées par « Quarto ! »
web-level-begins = laisser le niveau ou le bot commencer
web-start = commencer
web-title-level = Contre le niveau { $level }
web-title-bot = Contre le bot de { $name }
web-against-bot = contre le bot de { $name }
web-bots = Les bots des participants
web-bot-thinking = Le bot de { $name } réfléchit ; la page montrera son coup dès qu'il sera joué.
web-look-again = regarder à nouveau
web-bot-forfeit = Le bot de { $name } a perdu par sa propre faute ({ $why }) : tu gagnes.
web-clock = pendule
web-no-clock = sans pendule
web-clock-of = { $player } : { $time }
web-flagged = { $who ->
    [you] Ton temps est écoulé : tu perds.
   *[other] Le temps de { $player } est écoulé : { $player } perd.
}
web-title-two = Deux joueurs
web-title-puzzle = Le casse-tête du { $date }
web-rules-now = Règles : { $rules }.
web-address = L'adresse de cette partie, pour y revenir ou la partager :
web-board = Le plateau
web-board-place = Le plateau : choisis où va { $piece }
web-give = La pièce à donner
web-typed = ou tape le coup
web-play-button = jouer
web-no-moves = Aucun pour l'instant.
web-new-game = une nouvelle partie
web-status-place = { $player } : pose { $piece }, puis donne une pièce.
web-lose = Tu as perdu.
web-solved = Résolu.
web-not-solved = Pas résolu : la victoire était là. Réessaie demain, ou recommence-le.
web-moved-on = La partie a avancé entre-temps : regarde à nouveau.
web-not-yours = Ce n'est pas ton tour.
web-choose = Choisis une case et une pièce, ou tape le coup.
web-view-text = mode texte, pour les lecteurs d'écran
web-view-board = le plateau dessiné
web-rows = Le plateau, rangée par rangée
web-row = Rangée { $row } : { $squares }.
web-empty = vide
web-in-hand = En main : { $piece }.
web-left = Pièces encore à donner : { $pieces }.
web-your-move = Ton coup : la case et la pièce à donner, comme A2 BDRF
web-claimable = La dernière pièce a complété une figure non annoncée : tape quarto pour la réclamer.
web-last = Dernier coup : { $turn }
web-turn-give = { $who ->
    [you] Tu as donné { $piece }.
   *[other] { $player } a donné { $piece }.
}
web-turn-place = { $who ->
    [you] Tu as posé { $placed } en { $square } et donné { $piece }.
   *[other] { $player } a posé { $placed } en { $square } et donné { $piece }.
}
web-turn-end = { $who ->
    [you] Tu as posé { $placed } en { $square }.
   *[other] { $player } a posé { $placed } en { $square }.
}
web-turn-quarto = { $who ->
    [you] Tu as posé { $placed } en { $square } et annoncé « Quarto ! ».
   *[other] { $player } a posé { $placed } en { $square } et annoncé « Quarto ! ».
}
web-turn-claim = { $who ->
    [you] Tu as réclamé la figure non annoncée : « Quarto ! ».
   *[other] { $player } a réclamé la figure non annoncée : « Quarto ! ».
}
web-review = L'analyse du solveur
web-review-link = l'analyse de cette partie par le solveur
web-download = télécharger la partie (games.jsonl)
web-back = retour à la partie
web-col-who = qui
web-col-move = coup
web-col-word = le verdict du solveur
web-unjudged = non jugé (plus de { $empty } cases vides)
web-kept = gardé : { $value }
web-mistake = une erreur : { $before } avant, { $after } après
web-missed-win = une victoire manquée
web-better = { $move } gardait la valeur
web-try-again = réessayer à partir d'ici
web-rules-link = les règles
web-variants = Les variantes
