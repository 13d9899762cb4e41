# El catálogo español: los mismos mensajes que en.ftl, con las mismas variables. Las letras de
# las piezas (B S D L R Q F H), las casillas (A1-D4) y la palabra `quarto` en las jugadas
# escritas son la notación y no se traducen.

## Características y sus valores

trait-size = tamaño
trait-color = color
trait-shape = forma
trait-fill = relleno
value-big = grande
value-small = pequeña
value-dark = oscura
value-light = clara
value-round = redonda
value-square = cuadrada
value-solid = maciza
value-hollow = hueca

## Variantes

variant-quads = Quads
variant-classic = Quarto clásico
variant-traits = solo cuentan { $traits }
variant-squares-off = sin cuadrados 2×2
variant-squares-on = con cuadrados 2×2
variant-announce = hay que anunciar «Quarto!»

## quads rules

rules-title = Las reglas: { $variant }
rules-material = Un tablero de 4×4 y 16 piezas. Cada pieza es { $size }, { $color }, { $shape } y { $fill }: cada característica tiene dos valores posibles, y a cada una de las 16 combinaciones le corresponde una pieza. Las piezas no son de nadie: los dos jugadores construyen con el mismo juego.
rules-turn = El primer jugador elige una pieza y se la entrega al otro, que la coloca. A partir de ahí, cada turno tiene siempre dos pasos: coloca la pieza que te han entregado en cualquier casilla libre y luego elige una de las piezas que siguen fuera del tablero y entrégasela a tu rival. Nunca eliges la pieza que colocas, y no puedes pasar.
rules-shapes-quads = Figuras ganadoras: las 4 filas, las 4 columnas, las 2 diagonales y los 9 bloques de 2×2 casillas contiguas (19 en total).
rules-shapes-classic = Figuras ganadoras: las 4 filas, las 4 columnas y las 2 diagonales (10 en total).
rules-traits-all = Una figura gana cuando sus cuatro piezas comparten al menos un valor: todas grandes, todas huecas, etc. Las demás características pueden ser distintas.
rules-traits-some = Solo cuentan estas características: { $traits }. Una figura gana cuando sus cuatro piezas coinciden en una de ellas; si solo coinciden en otra característica, no gana.
rules-win-auto = Quien coloca la cuarta pieza de una figura ganadora gana al instante, sin importar quién colocó las otras tres.
rules-win-announce = La regla del «Quarto!»: no basta con completar una figura ganadora, hay que anunciarla al colocar la pieza. Si no lo haces y entregas una pieza, tu rival puede reclamar la victoria antes de colocarla, y entonces gana él. Si nadie la reclama, esa figura deja de contar.
rules-draw = Si las 16 piezas están en el tablero y nadie ha ganado, la partida termina en empate.
rules-notation = Notación: columnas de la A a la D desde la izquierda, filas del 1 al 4 desde abajo (A1 es la esquina inferior izquierda). Una pieza se escribe con cuatro letras, las iniciales en inglés de sus valores: B o S (grande, pequeña), D o L (oscura, clara), R o Q (redonda, cuadrada), F o H (maciza, hueca). Un turno se anota con la casilla y la pieza entregada: D2 BLQF coloca en D2 y entrega BLQF.
rules-tip = Un consejo: lo que decide la partida es la pieza que entregas. Antes de dársela a tu rival, busca una casilla donde completaría una figura.

## quads play: jugadores y turnos

player-you = Tú
player-one = Jugador 1
player-two = Jugador 2
player-level = Nivel { $level }
player-solver = El solucionador
status-opening = { $player }: elige la primera pieza para entregar
status-place = { $player }: coloca { $piece }
status-give = { $player }: elige la pieza para entregar
status-thinking = { $player } está pensando…
status-claimable = La última pieza completó una figura que nadie anunció: F2 la reclama.
title = Quads Arena: { $variant }

## quads play: paneles

panel-board = Tablero
panel-hand = En mano
panel-give = Piezas por entregar
panel-moves = Jugadas
panel-legend = Leyenda
panel-clocks = Relojes
panel-position = Posición
hand-none = ninguna
legend-size = alta (2 filas) = grande, baja = pequeña
legend-color = oscura / clara
legend-shape = ● ○ redonda, ■ □ cuadrada
legend-fill = ● ■ maciza, ○ □ hueca
legend-letters = letras: B/S grande/pequeña, D/L oscura/clara, R/Q redonda/cuadrada, F/H maciza/hueca
quarto-button = Quarto!

## quads play: teclas

keys-place = Flechas: casilla · Enter: colocar · escribe una jugada (D2 BLQF) · Esc: cancelar
keys-give = Flechas: pieza · Enter: entregar · F2: Quarto! · Esc: volver
keys-common = Ctrl-Z: deshacer · F1: reglas · Ctrl-Q: salir
keys-end = Enter o Ctrl-Q: salir

## quads play: qué ha pasado

msg-illegal = No está permitido: { $reason }
msg-unreadable = No entiendo «{ $text }»: escribe una casilla y una pieza, como D2 BLQF, o «quarto».
msg-undone = { $count ->
    [one] Se ha deshecho una jugada.
   *[other] Se han deshecho { $count } jugadas.
}
msg-nothing-to-undo = Todavía no hay nada que deshacer.
msg-no-undo-humans = Solo se puede deshacer en partidas contra un bot.
msg-announced = { $who ->
    [you] Anuncias «Quarto!»
   *[other] { $player } anuncia «Quarto!»
}
msg-claimed = { $who ->
    [you] Reclamas la figura que se le escapó al rival: «Quarto!»
   *[other] { $player } reclama la figura que se le escapó al rival: «Quarto!»
}
msg-played = { $player } ha jugado { $move }.
msg-chosen = Casilla { $square } elegida: ahora la pieza para entregar, o Esc.
msg-bot-failed = { $player } pierde por descalificación: { $detail }
msg-saved = Partida guardada en { $path }.

reason-game-over = la partida ha terminado
reason-nothing-to-place = todavía no hay ninguna pieza en mano: la primera jugada es una entrega
reason-must-place = primero coloca la pieza que tienes en mano
reason-occupied = la casilla { $square } está ocupada
reason-unavailable = la pieza { $piece } no está disponible
reason-must-give = la partida sigue, así que tienes que entregar una pieza
reason-must-not-give = esta colocación termina la partida: no entregues nada
reason-no-claims = «Quarto!» solo se anuncia con la regla del anuncio
reason-false-claim = no hay ninguna figura completa que reclamar

## quads play: el final

end-win = { $who ->
    [you] ¡Has ganado!
   *[other] ¡{ $player } gana!
}
end-draw = Empate: el tablero está lleno.
end-timeout = { $player } se ha quedado sin tiempo.
end-forfeit = { $player } pierde por descalificación ({ $reason }).
end-decided = Decidida en la jugada { $number } ({ $move }, { $player }): antes la partida estaba { $before }; después, { $after }.
end-decided-before = Desde que quedaban { $empty } casillas libres, ninguna jugada cambió el resultado: ya estaba decidido.
end-decided-unjudged = La partida terminó antes de que entrara en juego el solucionador ({ $empty } casillas libres).
end-decided-forfeit = Decidida por descalificación, no en el tablero.
value-win = ganada
value-draw = empatada
value-loss = perdida
end-shape = La figura ganadora está marcada en el tablero.

## quads puzzle

level-easy = fácil
level-medium = medio
level-hard = difícil
puzzle-title = Problema del { $date } ({ $level })
puzzle-task = { $player } juega y gana en { $placements ->
    [one] una colocación
   *[other] { $placements } colocaciones
}.
puzzle-exactly-one = Solo una jugada gana, contando tanto la colocación como la pieza entregada.
puzzle-tempting = { $count ->
    [0] De las jugadas que parecen seguras, ninguna pierde.
    [one] De las jugadas que parecen seguras, una pierde.
   *[other] De las jugadas que parecen seguras, { $count } pierden.
}
puzzle-first = El primer jugador
puzzle-second = El segundo jugador
puzzle-solution = Solución: { $moves }
puzzle-right = { $move } es la solución.
puzzle-wrong = { $move } no es la solución.
puzzle-illegal = { $move } no es una jugada válida aquí: { $reason }
puzzle-play-won = Resuelto: has ganado en { $placements ->
    [one] una colocación
   *[other] { $placements } colocaciones
}.
puzzle-play-lost = Esta no era: se te ha escapado la victoria. La solución era { $moves }.

## La página de juego en el navegador (quads serve)

nav-leaderboard = clasificación
nav-play = jugar
nav-final = final
nav-host = organizador
nav-me = yo ({ $name })
nav-log-in = entrar
nav-sign-up = inscribirse
nav-log-out = salir
web-language = Idioma
web-play = Jugar
web-intro = Juega una partida de Quads o del Quarto clásico: contra uno de los cinco niveles, con un amigo en este dispositivo, o el reto del día.
web-game = Partida
web-against-level = contra el nivel { $level }
web-random = (al azar)
web-perfect = (perfecto)
web-two = dos jugadores en este dispositivo
web-puzzle = el reto del día
web-rules = Reglas
web-rules-quads = Quads (filas, columnas, diagonales y cuadrados de 2×2)
web-rules-classic = Quarto clásico
web-rules-announce = Quarto clásico, victorias anunciadas con «¡Quarto!»
web-level-begins = dejar que empiece el nivel o el bot
web-start = empezar
web-title-level = Contra el nivel { $level }
web-title-bot = Contra el bot de { $name }
web-against-bot = contra el bot de { $name }
web-bots = Bots de los participantes
web-bot-thinking = El bot de { $name } está pensando; la página mostrará su jugada en cuanto la haga.
web-look-again = volver a mirar
web-bot-forfeit = El bot de { $name } perdió por una falta propia ({ $why }): ganas tú.
web-clock = reloj
web-no-clock = sin reloj
web-clock-of = { $player }: { $time }
web-flagged = { $who ->
    [you] Se te acabó el tiempo: pierdes.
   *[other] A { $player } se le acabó el tiempo: pierde.
}
web-title-two = Dos jugadores
web-title-puzzle = El reto del { $date }
web-rules-now = Reglas: { $rules }.
web-address = La dirección de esta partida, para volver a ella o compartirla:
web-board = El tablero
web-board-place = El tablero: elige dónde va { $piece }
web-give = La pieza que entregas
web-typed = o escribe la jugada
web-play-button = jugar
web-no-moves = Ninguna todavía.
web-new-game = una partida nueva
web-status-place = { $player }: coloca { $piece } y luego entrega una pieza.
web-lose = Has perdido.
web-solved = Resuelto.
web-not-solved = No resuelto: la victoria estaba ahí. Vuelve a intentarlo mañana, o empiézalo de nuevo.
web-moved-on = La partida ha avanzado entretanto: vuelve a mirar.
web-not-yours = No es tu turno.
web-choose = Elige una casilla y una pieza, o escribe la jugada.
web-view-text = modo texto, para lectores de pantalla
web-view-board = el tablero dibujado
web-rows = El tablero, fila por fila
web-row = Fila { $row }: { $squares }.
web-empty = vacía
web-in-hand = En la mano: { $piece }.
web-left = Piezas que quedan por entregar: { $pieces }.
web-your-move = Tu jugada: la casilla y la pieza que entregas, como A2 BDRF
web-claimable = La última pieza completó una figura que nadie anunció: escribe quarto para reclamarla.
web-last = Última jugada: { $turn }
web-turn-give = { $who ->
    [you] Entregaste { $piece }.
   *[other] { $player } entregó { $piece }.
}
web-turn-place = { $who ->
    [you] Colocaste { $placed } en { $square } y entregaste { $piece }.
   *[other] { $player } colocó { $placed } en { $square } y entregó { $piece }.
}
web-turn-end = { $who ->
    [you] Colocaste { $placed } en { $square }.
   *[other] { $player } colocó { $placed } en { $square }.
}
web-turn-quarto = { $who ->
    [you] Colocaste { $placed } en { $square } y anunciaste «¡Quarto!».
   *[other] { $player } colocó { $placed } en { $square } y anunció «¡Quarto!».
}
web-turn-claim = { $who ->
    [you] Reclamaste la figura que nadie anunció: «¡Quarto!».
   *[other] { $player } reclamó la figura que nadie anunció: «¡Quarto!».
}
web-review = El análisis del resolvedor
web-review-link = el análisis de esta partida por el resolvedor
web-download = descargar la partida (games.jsonl)
web-back = volver a la partida
web-col-who = quién
web-col-move = jugada
web-col-word = el veredicto del resolvedor
web-unjudged = sin juzgar (más de { $empty } casillas vacías)
web-kept = mantenido: { $value }
web-mistake = un error: { $before } antes, { $after } después
web-missed-win = dejó escapar una victoria
web-better = { $move } mantenía el valor
web-try-again = intentarlo de nuevo desde aquí
web-rules-link = las reglas
web-variants = Las variantes
