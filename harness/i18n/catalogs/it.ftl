# Il catalogo italiano: gli stessi messaggi di en.ftl, con le stesse variabili. Le lettere dei
# pezzi (B S D L R Q F H), le caselle (A1-D4) e la parola `quarto` nelle mosse scritte sono la
# notazione e restano invariate.

## Caratteristiche e valori

trait-size = dimensione
trait-color = colore
trait-shape = forma
trait-fill = riempimento
value-big = grande
value-small = piccolo
value-dark = scuro
value-light = chiaro
value-round = tondo
value-square = quadrato
value-solid = pieno
value-hollow = cavo

## Varianti

variant-quads = Quads
variant-classic = Quarto classico
variant-traits = contano solo { $traits }
variant-squares-off = senza quadrati 2×2
variant-squares-on = con i quadrati 2×2
variant-announce = «Quarto!» va annunciato

## quads rules

rules-title = Le regole: { $variant }
rules-material = Un tabellone 4×4 e 16 pezzi. Ogni pezzo è { $size }, { $color }, { $shape } e { $fill }: ogni caratteristica può avere due valori, e a ognuna delle 16 combinazioni corrisponde un solo pezzo. I pezzi non sono di nessuno: entrambi i giocatori costruiscono con lo stesso set.
rules-turn = Il primo giocatore sceglie un pezzo e lo consegna all'avversario, che lo piazza. Da quel momento ogni turno ha sempre due fasi: metti il pezzo che ti è stato consegnato su una casella libera qualsiasi, poi scegli uno dei pezzi ancora fuori dal tabellone e consegnalo all'avversario. Il pezzo che piazzi non lo scegli mai tu, e non puoi saltare il turno.
rules-shapes-quads = Figure vincenti: le 4 righe, le 4 colonne, le 2 diagonali e i 9 blocchi di 2×2 caselle adiacenti (19 in tutto).
rules-shapes-classic = Figure vincenti: le 4 righe, le 4 colonne e le 2 diagonali (10 in tutto).
rules-traits-all = Una figura è vincente quando i suoi quattro pezzi hanno almeno un valore in comune: tutti grandi, tutti cavi e così via. Le altre caratteristiche possono essere diverse.
rules-traits-some = Contano solo queste caratteristiche: { $traits }. Una figura è vincente quando i suoi quattro pezzi coincidono in una di esse; se coincidono solo in un'altra caratteristica, non vince.
rules-win-auto = Chi piazza il quarto pezzo di una figura vincente vince subito, chiunque abbia piazzato gli altri tre.
rules-win-announce = La regola del «Quarto!»: non basta completare una figura vincente, devi annunciarla mentre piazzi il pezzo. Se non lo fai e consegni un pezzo, l'avversario può rivendicare la vittoria prima di piazzarlo, e a vincere è lui. Se nessuno dei due la rivendica, quella figura non conta più.
rules-draw = Se tutti i 16 pezzi sono sul tabellone e nessuno ha vinto, la partita finisce patta.
rules-notation = Notazione: colonne da A a D partendo da sinistra, righe da 1 a 4 partendo dal basso (A1 è l'angolo in basso a sinistra). Un pezzo si scrive con quattro lettere, le iniziali inglesi dei suoi valori: B o S (grande, piccolo), D o L (scuro, chiaro), R o Q (tondo, quadrato), F o H (pieno, cavo). Un turno si scrive con la casella e il pezzo consegnato: D2 BLQF piazza in D2 e consegna BLQF.
rules-tip = Un consiglio: è la consegna a decidere la partita. Prima di consegnare un pezzo, cerca una casella in cui completerebbe una figura.

## quads play: giocatori e turni

player-you = Tu
player-one = Giocatore 1
player-two = Giocatore 2
player-level = Livello { $level }
player-solver = Il risolutore
status-opening = { $player }: scegli il primo pezzo da consegnare
status-place = { $player }: piazza { $piece }
status-give = { $player }: scegli il pezzo da consegnare
status-thinking = { $player } sta pensando…
status-claimable = L'ultimo pezzo ha completato una figura non annunciata: F2 la rivendica.
title = Quads Arena: { $variant }

## quads play: riquadri

panel-board = Tabellone
panel-hand = In mano
panel-give = Pezzi da consegnare
panel-moves = Mosse
panel-legend = Legenda
panel-clocks = Orologi
panel-position = Posizione
hand-none = nessuno
legend-size = alto (2 righe) = grande, basso = piccolo
legend-color = scuro / chiaro
legend-shape = ● ○ tondo, ■ □ quadrato
legend-fill = ● ■ pieno, ○ □ cavo
legend-letters = lettere: B/S grande/piccolo, D/L scuro/chiaro, R/Q tondo/quadrato, F/H pieno/cavo
quarto-button = Quarto!

## quads play: tasti

keys-place = Frecce: casella · Enter: piazza · scrivi una mossa (D2 BLQF) · Esc: annulla
keys-give = Frecce: pezzo · Enter: consegna · F2: Quarto! · Esc: indietro
keys-common = Ctrl-Z: annulla mossa · F1: regole · Ctrl-Q: esci
keys-end = Enter o Ctrl-Q: esci

## quads play: che cosa è successo

msg-illegal = Mossa non consentita: { $reason }
msg-unreadable = Non capisco «{ $text }»: scrivi una casella e un pezzo, come D2 BLQF, oppure «quarto».
msg-undone = { $count ->
    [one] Annullata una mossa.
   *[other] Annullate { $count } mosse.
}
msg-nothing-to-undo = Non c'è ancora niente da annullare.
msg-no-undo-humans = Si può annullare solo nelle partite contro un bot.
msg-announced = { $who ->
    [you] Annunci «Quarto!»
   *[other] { $player } annuncia «Quarto!»
}
msg-claimed = { $who ->
    [you] Rivendichi la figura sfuggita all'avversario: «Quarto!»
   *[other] { $player } rivendica la figura sfuggita all'avversario: «Quarto!»
}
msg-played = { $player } ha giocato { $move }.
msg-chosen = Casella { $square } scelta: ora il pezzo da consegnare, oppure Esc.
msg-bot-failed = { $player } perde a tavolino: { $detail }
msg-saved = Partita salvata in { $path }.

reason-game-over = la partita è finita
reason-nothing-to-place = non c'è ancora nessun pezzo in mano: la prima mossa è una consegna
reason-must-place = prima piazza il pezzo che hai in mano
reason-occupied = la casella { $square } è occupata
reason-unavailable = il pezzo { $piece } non è disponibile
reason-must-give = la partita continua, quindi devi consegnare un pezzo
reason-must-not-give = questo piazzamento chiude la partita: non consegnare niente
reason-no-claims = «Quarto!» si annuncia solo con la regola dell'annuncio
reason-false-claim = non c'è nessuna figura completata da rivendicare

## quads play: la fine

end-win = { $who ->
    [you] Hai vinto!
   *[other] { $player } vince!
}
end-draw = Patta: il tabellone è pieno.
end-timeout = { $player } ha esaurito il tempo.
end-forfeit = { $player } perde a tavolino ({ $reason }).
end-decided = Decisa alla mossa { $number } ({ $move }, { $player }): prima la partita era { $before }, dopo { $after }.
end-decided-before = Da { $empty } caselle vuote in poi nessuna mossa ha cambiato l'esito: era già deciso.
end-decided-unjudged = La partita è finita prima che entrasse in gioco il risolutore ({ $empty } caselle vuote).
end-decided-forfeit = Decisa dalla sconfitta a tavolino, non sul tabellone.
value-win = vinta
value-draw = patta
value-loss = persa
end-shape = La figura vincente è evidenziata sul tabellone.

## quads puzzle

level-easy = facile
level-medium = medio
level-hard = difficile
puzzle-title = Problema del { $date } ({ $level })
puzzle-task = { $player } muove e vince in { $placements ->
    [one] un piazzamento
   *[other] { $placements } piazzamenti
}.
puzzle-exactly-one = Vince una sola mossa, contando sia il piazzamento sia il pezzo consegnato.
puzzle-tempting = { $count ->
    [0] Tra le mosse che sembrano sicure, nessuna perde.
    [one] Tra le mosse che sembrano sicure, una perde.
   *[other] Tra le mosse che sembrano sicure, { $count } perdono.
}
puzzle-first = Il primo giocatore
puzzle-second = Il secondo giocatore
puzzle-solution = Soluzione: { $moves }
puzzle-right = { $move } è la soluzione.
puzzle-wrong = { $move } non è la soluzione.
puzzle-illegal = { $move } qui non è una mossa valida: { $reason }
puzzle-play-won = Risolto: hai vinto in { $placements ->
    [one] un piazzamento
   *[other] { $placements } piazzamenti
}.
puzzle-play-lost = Niente da fare: la vittoria è sfumata. La soluzione era { $moves }.

## La pagina di gioco nel browser (quads serve)

nav-leaderboard = classifica
nav-play = gioca
nav-final = finale
nav-host = organizzatore
nav-me = io ({ $name })
nav-log-in = accedi
nav-sign-up = iscriviti
nav-log-out = esci
web-language = Lingua
web-play = Gioca
web-intro = Gioca una partita a Quads o al Quarto classico: contro uno dei cinque livelli, con un amico su questo dispositivo, o il rompicapo del giorno.
web-game = Partita
web-against-level = contro il livello { $level }
web-random = (a caso)
web-perfect = (perfetto)
web-two = due giocatori su questo dispositivo
web-puzzle = il rompicapo del giorno
web-rules = Regole
web-rules-quads = Quads (righe, colonne, diagonali e quadrati 2×2)
web-rules-classic = Quarto classico
web-rules-announce = Quarto classico, con la vittoria annunciata “Quarto!”
web-level-begins = lascia iniziare il livello o il bot
web-start = inizia
web-title-level = Contro il livello { $level }
web-title-bot = Contro il bot di { $name }
web-against-bot = contro il bot di { $name }
web-bots = I bot dei partecipanti
web-bot-thinking = Il bot di { $name } sta pensando; la pagina mostrerà la sua mossa appena l’avrà fatta.
web-look-again = guarda di nuovo
web-bot-forfeit = Il bot di { $name } ha perso per un errore suo ({ $why }): hai vinto.
web-clock = orologio
web-no-clock = senza orologio
web-clock-of = { $player }: { $time }
web-flagged = { $who ->
    [you] Il tuo tempo è scaduto: hai perso.
   *[other] Il tempo di { $player } è scaduto: { $player } perde.
}
web-title-two = Due giocatori
web-title-puzzle = Il rompicapo del { $date }
web-rules-now = Regole: { $rules }.
web-address = L'indirizzo di questa partita, per tornarci o condividerla:
web-board = La scacchiera
web-board-place = La scacchiera: scegli dove va { $piece }
web-give = Il pezzo da consegnare
web-typed = oppure scrivi la mossa
web-play-button = gioca
web-no-moves = Ancora nessuna.
web-new-game = una nuova partita
web-status-place = { $player }: piazza { $piece }, poi consegna un pezzo.
web-lose = Hai perso.
web-solved = Risolto.
web-not-solved = Non risolto: la vittoria c'era. Riprova domani, o ricomincialo.
web-moved-on = La partita è andata avanti nel frattempo: guarda di nuovo.
web-not-yours = Non tocca a te.
web-choose = Scegli una casella e un pezzo, oppure scrivi la mossa.
web-view-text = modalità testo, per i lettori di schermo
web-view-board = la scacchiera disegnata
web-rows = La scacchiera, riga per riga
web-row = Riga { $row }: { $squares }.
web-empty = vuota
web-in-hand = In mano: { $piece }.
web-left = Pezzi ancora da consegnare: { $pieces }.
web-your-move = La tua mossa: la casella e il pezzo da consegnare, come A2 BDRF
web-claimable = L'ultimo pezzo ha completato una figura non annunciata: scrivi quarto per rivendicarla.
web-last = Ultima mossa: { $turn }
web-turn-give = { $who ->
    [you] Hai consegnato { $piece }.
   *[other] { $player } ha consegnato { $piece }.
}
web-turn-place = { $who ->
    [you] Hai piazzato { $placed } in { $square } e consegnato { $piece }.
   *[other] { $player } ha piazzato { $placed } in { $square } e consegnato { $piece }.
}
web-turn-end = { $who ->
    [you] Hai piazzato { $placed } in { $square }.
   *[other] { $player } ha piazzato { $placed } in { $square }.
}
web-turn-quarto = { $who ->
    [you] Hai piazzato { $placed } in { $square } e annunciato “Quarto!”.
   *[other] { $player } ha piazzato { $placed } in { $square } e annunciato “Quarto!”.
}
web-turn-claim = { $who ->
    [you] Hai rivendicato la figura non annunciata: “Quarto!”.
   *[other] { $player } ha rivendicato la figura non annunciata: “Quarto!”.
}
web-review = L'analisi del risolutore
web-review-link = l'analisi di questa partita fatta dal risolutore
web-download = scarica la partita (games.jsonl)
web-back = torna alla partita
web-col-who = chi
web-col-move = mossa
web-col-word = il giudizio del risolutore
web-unjudged = non giudicata (più di { $empty } caselle vuote)
web-kept = mantenuto: { $value }
web-mistake = un errore: { $before } prima, { $after } dopo
web-missed-win = ha mancato una vittoria
web-better = { $move } manteneva il valore
web-try-again = riprova da qui
web-rules-link = le regole
web-variants = Le varianti
