# O catálogo em português: as mesmas mensagens de en.ftl, com as mesmas variáveis. As letras das
# peças (B S D L R Q F H), as casas (A1-D4) e a palavra `quarto` nas jogadas digitadas são a
# notação e não se traduzem.

## Características e seus valores

trait-size = tamanho
trait-color = cor
trait-shape = formato
trait-fill = preenchimento
value-big = grande
value-small = pequena
value-dark = escura
value-light = clara
value-round = redonda
value-square = quadrada
value-solid = maciça
value-hollow = oca

## Variantes

variant-quads = Quads
variant-classic = Quarto clássico
variant-traits = só contam { $traits }
variant-squares-off = sem quadrados 2×2
variant-squares-on = com quadrados 2×2
variant-announce = é preciso anunciar “Quarto!”

## quads rules

rules-title = As regras: { $variant }
rules-material = Um tabuleiro 4×4 e 16 peças. Cada peça é { $size }, { $color }, { $shape } e { $fill }: cada característica tem dois valores, e cada uma das 16 combinações corresponde a uma peça. As peças não são de ninguém: os dois jogadores constroem com o mesmo conjunto.
rules-turn = O primeiro jogador escolhe uma peça e a entrega ao outro, que a coloca. Daí em diante, cada turno tem sempre duas etapas: coloque a peça que você recebeu em qualquer casa vazia e depois escolha uma das peças que ainda estão fora do tabuleiro e entregue-a ao adversário. Você nunca escolhe a peça que coloca e não pode passar a vez.
rules-shapes-quads = Figuras vencedoras: as 4 linhas, as 4 colunas, as 2 diagonais e os 9 blocos de 2×2 casas vizinhas (19 ao todo).
rules-shapes-classic = Figuras vencedoras: as 4 linhas, as 4 colunas e as 2 diagonais (10 ao todo).
rules-traits-all = Uma figura vence quando suas quatro peças têm pelo menos um valor em comum: todas grandes, todas ocas e assim por diante. As outras características podem ser diferentes.
rules-traits-some = Só contam estas características: { $traits }. Uma figura vence quando suas quatro peças coincidem em uma delas; peças que coincidem apenas em outra característica não vencem.
rules-win-auto = Quem coloca a quarta peça de uma figura vencedora vence na hora, não importa quem colocou as outras três.
rules-win-announce = A regra do “Quarto!”: não basta completar uma figura vencedora, é preciso anunciá-la ao colocar a peça. Se você não anunciar e entregar uma peça, o adversário pode reivindicar a vitória antes de colocar essa peça, e aí quem vence é ele. Se ninguém reivindicar, essa figura deixa de valer.
rules-draw = Se as 16 peças estiverem no tabuleiro e ninguém tiver vencido, a partida termina empatada.
rules-notation = Notação: colunas de A a D a partir da esquerda, linhas de 1 a 4 a partir de baixo (A1 é o canto inferior esquerdo). Uma peça se escreve com quatro letras, as iniciais em inglês dos seus valores: B ou S (grande, pequena), D ou L (escura, clara), R ou Q (redonda, quadrada), F ou H (maciça, oca). Um turno se anota com a casa e a peça entregue: D2 BLQF coloca em D2 e entrega BLQF.
rules-tip = Uma dica: quem decide a partida é a peça que você entrega. Antes de entregar uma peça, procure uma casa onde ela completaria uma figura.

## quads play: jogadores e turnos

player-you = Você
player-one = Jogador 1
player-two = Jogador 2
player-level = Nível { $level }
player-solver = O solucionador
status-opening = { $player }: escolha a primeira peça a entregar
status-place = { $player }: coloque { $piece }
status-give = { $player }: escolha a peça a entregar
status-thinking = { $player } está pensando…
status-claimable = A última peça completou uma figura que não foi anunciada: F2 reivindica a vitória.
title = Quads Arena: { $variant }

## quads play: painéis

panel-board = Tabuleiro
panel-hand = Na mão
panel-give = Peças a entregar
panel-moves = Jogadas
panel-legend = Legenda
panel-clocks = Relógios
panel-position = Posição
hand-none = nenhuma
legend-size = alta (2 linhas) = grande, baixa = pequena
legend-color = escura / clara
legend-shape = ● ○ redonda, ■ □ quadrada
legend-fill = ● ■ maciça, ○ □ oca
legend-letters = letras: B/S grande/pequena, D/L escura/clara, R/Q redonda/quadrada, F/H maciça/oca
quarto-button = Quarto!

## quads play: teclas

keys-place = Setas: casa · Enter: colocar · digite uma jogada (D2 BLQF) · Esc: cancelar
keys-give = Setas: peça · Enter: entregar · F2: Quarto! · Esc: voltar
keys-common = Ctrl-Z: desfazer · F1: regras · Ctrl-Q: sair
keys-end = Enter ou Ctrl-Q: sair

## quads play: o que aconteceu

msg-illegal = Não é permitido: { $reason }
msg-unreadable = Não entendi “{ $text }”: digite uma casa e uma peça, como D2 BLQF, ou “quarto”.
msg-undone = { $count ->
    [one] Uma jogada desfeita.
   *[other] { $count } jogadas desfeitas.
}
msg-nothing-to-undo = Ainda não há nada para desfazer.
msg-no-undo-humans = Só dá para desfazer em partidas contra um bot.
msg-announced = { $who ->
    [you] Você anuncia “Quarto!”
   *[other] { $player } anuncia “Quarto!”
}
msg-claimed = { $who ->
    [you] Você reivindica a figura que o adversário deixou passar: “Quarto!”
   *[other] { $player } reivindica a figura que o adversário deixou passar: “Quarto!”
}
msg-played = { $player } jogou { $move }.
msg-chosen = Casa { $square } escolhida: agora a peça a entregar, ou Esc.
msg-bot-failed = { $player } perdeu por desclassificação: { $detail }
msg-saved = Partida salva em { $path }.

reason-game-over = a partida já terminou
reason-nothing-to-place = ainda não há nenhuma peça na mão: a primeira jogada é uma entrega
reason-must-place = primeiro coloque a peça que está na mão
reason-occupied = a casa { $square } está ocupada
reason-unavailable = a peça { $piece } não está disponível
reason-must-give = a partida continua, então você precisa entregar uma peça
reason-must-not-give = esta colocação encerra a partida: não entregue nada
reason-no-claims = “Quarto!” só se anuncia com a regra do anúncio
reason-false-claim = não há nenhuma figura completa para reivindicar

## quads play: o fim

end-win = { $who ->
    [you] Você venceu!
   *[other] { $player } venceu!
}
end-draw = Empate: o tabuleiro está cheio.
end-timeout = { $player } ficou sem tempo.
end-forfeit = { $player } perdeu por desclassificação ({ $reason }).
end-decided = Decidida na jogada { $number } ({ $move }, { $player }): antes dela a partida estava { $before }; depois, { $after }.
end-decided-before = A partir de { $empty } casas vazias, nenhuma jogada mudou o resultado: ele já estava decidido.
end-decided-unjudged = A partida terminou antes de o solucionador entrar em ação ({ $empty } casas vazias).
end-decided-forfeit = Decidida pela desclassificação, não no tabuleiro.
value-win = ganha
value-draw = empatada
value-loss = perdida
end-shape = A figura vencedora está marcada no tabuleiro.

## quads puzzle

level-easy = fácil
level-medium = médio
level-hard = difícil
puzzle-title = Desafio do dia { $date } ({ $level })
puzzle-task = { $player } joga e vence em { $placements ->
    [one] uma colocação
   *[other] { $placements } colocações
}.
puzzle-exactly-one = Só uma jogada vence, contando a colocação e a peça entregue.
puzzle-tempting = { $count ->
    [0] Das jogadas que parecem seguras, nenhuma perde.
    [one] Das jogadas que parecem seguras, uma perde.
   *[other] Das jogadas que parecem seguras, { $count } perdem.
}
puzzle-first = O primeiro jogador
puzzle-second = O segundo jogador
puzzle-solution = Solução: { $moves }
puzzle-right = { $move } é a solução.
puzzle-wrong = { $move } não é a solução.
puzzle-illegal = { $move } não é uma jogada válida aqui: { $reason }
puzzle-play-won = Resolvido: você venceu em { $placements ->
    [one] uma colocação
   *[other] { $placements } colocações
}.
puzzle-play-lost = Não foi dessa vez: a vitória escapou. A solução era { $moves }.

## A página de jogo no navegador (quads serve)

nav-leaderboard = classificação
nav-play = jogar
nav-final = final
nav-host = organizador
nav-me = eu ({ $name })
nav-log-in = entrar
nav-sign-up = inscrever-se
nav-log-out = sair
web-language = Idioma
web-play = Jogar
web-intro = Jogue uma partida de Quads ou do Quarto clássico: contra um dos cinco níveis, com um amigo neste dispositivo, ou o desafio do dia.
web-game = Partida
web-against-level = contra o nível { $level }
web-random = (ao acaso)
web-perfect = (perfeito)
web-two = dois jogadores neste dispositivo
web-puzzle = o desafio do dia
web-rules = Regras
web-rules-quads = Quads (linhas, colunas, diagonais e quadrados 2×2)
web-rules-classic = Quarto clássico
web-rules-announce = Quarto clássico, vitórias anunciadas com “Quarto!”
web-level-begins = deixar o nível ou o bot começar
web-start = começar
web-title-level = Contra o nível { $level }
web-title-bot = Contra o bot de { $name }
web-against-bot = contra o bot de { $name }
web-bots = Bots dos participantes
web-bot-thinking = O bot de { $name } está pensando; a página mostrará a jogada dele assim que ela for feita.
web-look-again = olhar de novo
web-bot-forfeit = O bot de { $name } perdeu por uma falha própria ({ $why }): você venceu.
web-clock = relógio
web-no-clock = sem relógio
web-clock-of = { $player }: { $time }
web-flagged = { $who ->
    [you] Seu tempo acabou: você perdeu.
   *[other] O tempo de { $player } acabou: { $player } perdeu.
}
web-title-two = Dois jogadores
web-title-puzzle = O desafio de { $date }
web-rules-now = Regras: { $rules }.
web-address = O endereço desta partida, para voltar a ela ou compartilhá-la:
web-board = O tabuleiro
web-board-place = O tabuleiro: escolha onde vai { $piece }
web-give = A peça a entregar
web-typed = ou escreva a jogada
web-play-button = jogar
web-no-moves = Nenhuma ainda.
web-new-game = uma nova partida
web-status-place = { $player }: coloque { $piece } e depois entregue uma peça.
web-lose = Você perdeu.
web-solved = Resolvido.
web-not-solved = Não resolvido: a vitória estava lá. Tente de novo amanhã, ou recomece-o.
web-moved-on = A partida avançou nesse meio-tempo: veja de novo.
web-not-yours = Não é a sua vez.
web-choose = Escolha uma casa e uma peça, ou escreva a jogada.
web-view-text = modo texto, para leitores de tela
web-view-board = o tabuleiro desenhado
web-rows = O tabuleiro, linha por linha
web-row = Linha { $row }: { $squares }.
web-empty = vazia
web-in-hand = Na mão: { $piece }.
web-left = Peças ainda por entregar: { $pieces }.
web-your-move = Sua jogada: a casa e a peça a entregar, como A2 BDRF
web-claimable = A última peça completou uma figura que não foi anunciada: escreva quarto para reivindicá-la.
web-last = Última jogada: { $turn }
web-turn-give = { $who ->
    [you] Você entregou { $piece }.
   *[other] { $player } entregou { $piece }.
}
web-turn-place = { $who ->
    [you] Você colocou { $placed } em { $square } e entregou { $piece }.
   *[other] { $player } colocou { $placed } em { $square } e entregou { $piece }.
}
web-turn-end = { $who ->
    [you] Você colocou { $placed } em { $square }.
   *[other] { $player } colocou { $placed } em { $square }.
}
web-turn-quarto = { $who ->
    [you] Você colocou { $placed } em { $square } e anunciou “Quarto!”.
   *[other] { $player } colocou { $placed } em { $square } e anunciou “Quarto!”.
}
web-turn-claim = { $who ->
    [you] Você reivindicou a figura não anunciada: “Quarto!”.
   *[other] { $player } reivindicou a figura não anunciada: “Quarto!”.
}
web-review = A análise do resolvedor
web-review-link = a análise desta partida pelo resolvedor
web-download = baixar a partida (games.jsonl)
web-back = voltar à partida
web-col-who = quem
web-col-move = jogada
web-col-word = o veredito do resolvedor
web-unjudged = não avaliada (mais de { $empty } casas vazias)
web-kept = mantido: { $value }
web-mistake = um erro: { $before } antes, { $after } depois
web-missed-win = deixou escapar uma vitória
web-better = { $move } mantinha o valor
web-try-again = tentar de novo daqui
web-rules-link = as regras
web-variants = As variantes
