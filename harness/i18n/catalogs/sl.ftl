# Slovenski katalog: enaka sporočila kot v en.ftl, z enakimi spremenljivkami. Črke figur
# (B S D L R Q F H), polja (A1-D4) in beseda `quarto` v vpisanih potezah so zapis in ostanejo
# nespremenjeni.

## Lastnosti in njihove vrednosti

trait-size = velikost
trait-color = barva
trait-shape = oblika
trait-fill = polnost
value-big = velika
value-small = majhna
value-dark = temna
value-light = svetla
value-round = okrogla
value-square = kvadratna
value-solid = polna
value-hollow = votla

## Različice

variant-quads = Quads
variant-classic = klasični Quarto
variant-traits = štejejo le lastnosti { $traits }
variant-squares-off = brez kvadratov 2×2
variant-squares-on = s kvadrati 2×2
variant-announce = „Quarto!“ je treba napovedati

## quads rules

rules-title = Pravila: { $variant }
rules-material = Plošča 4×4 in 16 figur. Vsaka figura je { $size }, { $color }, { $shape } in { $fill }: vsaka lastnost ima dve vrednosti in vsaki od 16 kombinacij ustreza ena figura. Figure niso od nikogar: oba igralca gradita z istim kompletom.
rules-turn = Prvi igralec izbere figuro in jo poda drugemu, ki jo postavi. Od tedaj ima vsaka poteza dva koraka: figuro, ki ti jo je podal nasprotnik, postavi na katero koli prazno polje, nato izberi eno od figur, ki so še zunaj plošče, in jo podaj nasprotniku. Figure, ki jo postaviš, nikoli ne izbiraš ti, poteze pa ne moreš izpustiti.
rules-shapes-quads = Zmagovalni liki: 4 vrstice, 4 stolpci, 2 diagonali in 9 kvadratov iz 2×2 sosednjih polj (skupaj 19).
rules-shapes-classic = Zmagovalni liki: 4 vrstice, 4 stolpci in 2 diagonali (skupaj 10).
rules-traits-all = Lik zmaga, ko imajo njegove štiri figure vsaj eno skupno vrednost: vse so velike, vse votle in tako naprej. Ostale lastnosti so lahko različne.
rules-traits-some = Štejejo le te lastnosti: { $traits }. Lik zmaga, ko se njegove štiri figure ujemajo v eni od njih; figure, ki se ujemajo le v kakšni drugi lastnosti, ne zmagajo.
rules-win-auto = Kdor postavi četrto figuro zmagovalnega lika, takoj zmaga, ne glede na to, kdo je postavil ostale tri.
rules-win-announce = Pravilo „Quarto!“: dopolniti zmagovalni lik ni dovolj, zmago moraš napovedati, ko postaviš figuro. Če tega ne storiš in podaš figuro, lahko nasprotnik zahteva zmago, preden to figuro postavi, in zmaga namesto tebe. Če zmage ne zahteva nihče, ta lik ne šteje več.
rules-draw = Če je vseh 16 figur na plošči in ni nihče zmagal, je igra neodločena.
rules-notation = Zapis: stolpci od A do D od leve, vrstice od 1 do 4 od spodaj (A1 je spodnji levi kot). Figuro zapišemo s štirimi črkami, angleškimi začetnicami njenih vrednosti: B ali S (velika, majhna), D ali L (temna, svetla), R ali Q (okrogla, kvadratna), F ali H (polna, votla). Potezo zapišemo s poljem in podano figuro: D2 BLQF postavi na D2 in poda BLQF.
rules-tip = Nasvet: o izidu igre odloča figura, ki jo podaš. Preden jo podaš, poišči polje, na katerem bi dopolnila lik.

## quads play: igralci in poteze

player-you = Ti
player-one = Igralec 1
player-two = Igralec 2
player-level = Stopnja { $level }
player-solver = Reševalnik
status-opening = { $player }: izberi prvo figuro za podajo
status-place = { $player }: postavi { $piece }
status-give = { $player }: izberi figuro za podajo
status-thinking = { $player } razmišlja …
status-claimable = Zadnja figura je dopolnila lik, ki ni bil napovedan: s tipko F2 zahtevaš zmago.
title = Quads Arena – { $variant }

## quads play: okna

panel-board = Plošča
panel-hand = V roki
panel-give = Figure za podajo
panel-moves = Poteze
panel-legend = Legenda
panel-clocks = Ure
panel-position = Položaj
hand-none = nič
legend-size = visoka (2 vrstici) = velika, nizka = majhna
legend-color = temna / svetla
legend-shape = ● ○ okrogla, ■ □ kvadratna
legend-fill = ● ■ polna, ○ □ votla
legend-letters = črke: B/S velika/majhna, D/L temna/svetla, R/Q okrogla/kvadratna, F/H polna/votla
quarto-button = Quarto!

## quads play: tipke

keys-place = Puščice: polje · Enter: postavi · vpiši potezo (D2 BLQF) · Esc: prekliči
keys-give = Puščice: figura · Enter: podaj · F2: Quarto! · Esc: nazaj
keys-common = Ctrl-Z: razveljavi · F1: pravila · Ctrl-Q: izhod
keys-end = Enter ali Ctrl-Q: izhod

## quads play: kaj se je zgodilo

msg-illegal = Ni dovoljeno: { $reason }
msg-unreadable = Ne razumem „{ $text }“: vpiši polje in figuro, na primer D2 BLQF, ali „quarto“.
msg-undone = Razveljavljeno: { $count ->
    [one] { $count } poteza
    [two] { $count } potezi
    [few] { $count } poteze
   *[other] { $count } potez
}.
msg-nothing-to-undo = Zaenkrat ni ničesar za razveljavitev.
msg-no-undo-humans = Razveljavljanje je mogoče le v igri proti botu.
msg-announced = { $who ->
    [you] Napoveš „Quarto!“
   *[other] { $player } napove „Quarto!“
}
msg-claimed = { $who ->
    [you] Zahtevaš lik, ki ga je nasprotnik spregledal: „Quarto!“
   *[other] { $player } zahteva lik, ki ga je nasprotnik spregledal: „Quarto!“
}
msg-played = { $player }: poteza { $move }.
msg-chosen = Izbrano polje { $square }: zdaj izberi figuro za podajo ali pritisni Esc.
msg-bot-failed = { $player } izgubi zaradi diskvalifikacije: { $detail }
msg-saved = Igra je shranjena v { $path }.

reason-game-over = igra je končana
reason-nothing-to-place = v roki še ni nobene figure: prva poteza je podaja
reason-must-place = najprej postavi figuro, ki jo imaš v roki
reason-occupied = polje { $square } je zasedeno
reason-unavailable = figura { $piece } ni na voljo
reason-must-give = igra se nadaljuje, zato moraš podati figuro
reason-must-not-give = ta postavitev konča igro: ne podaj ničesar
reason-no-claims = „Quarto!“ se napove le po pravilu o napovedi
reason-false-claim = ni nobenega dopolnjenega lika, ki bi ga bilo mogoče zahtevati

## quads play: konec

end-win = { $who ->
    [you] Zmaga je tvoja!
   *[other] { $player } zmaga!
}
end-draw = Neodločeno: plošča je polna.
end-timeout = Čas je potekel: { $player }.
end-forfeit = { $player } izgubi zaradi diskvalifikacije ({ $reason }).
end-decided = Igro je odločila poteza { $number } ({ $move }, { $player }): pred njo je bila igra { $before }, po njej { $after }.
end-decided-before = Od { $empty ->
    [one] { $empty } praznega polja
    [two] { $empty } praznih polj
    [few] { $empty } praznih polj
   *[other] { $empty } praznih polj
} naprej nobena poteza ni spremenila izida: igra je bila že odločena.
end-decided-unjudged = Igra se je končala, preden je prišel na vrsto reševalnik ({ $empty ->
    [one] { $empty } prazno polje
    [two] { $empty } prazni polji
    [few] { $empty } prazna polja
   *[other] { $empty } praznih polj
}).
end-decided-forfeit = Igro je odločila diskvalifikacija, ne igra na plošči.
value-win = dobljena
value-draw = neodločena
value-loss = izgubljena
end-shape = Zmagovalni lik je označen na plošči.

## quads puzzle

level-easy = lahka
level-medium = srednja
level-hard = težka
puzzle-title = Uganka z dne { $date } ({ $level })
puzzle-task = { $player } je na potezi in zmaga v { $placements ->
    [one] { $placements } postavitvi
    [two] { $placements } postavitvah
    [few] { $placements } postavitvah
   *[other] { $placements } postavitvah
}.
puzzle-exactly-one = Zmaga natanko ena poteza: postavitev skupaj s podano figuro.
puzzle-tempting = { $count ->
    [0] Nobena poteza, ki je videti varna, ne izgubi.
    [one] { $count } poteza, ki je videti varna, izgubi.
    [two] { $count } potezi, ki sta videti varni, izgubita.
    [few] { $count } poteze, ki so videti varne, izgubijo.
   *[other] { $count } potez, ki so videti varne, izgubi.
}
puzzle-first = Prvi igralec
puzzle-second = Drugi igralec
puzzle-solution = Rešitev: { $moves }
puzzle-right = { $move } je rešitev.
puzzle-wrong = { $move } ni rešitev.
puzzle-illegal = { $move } tukaj ni dovoljena poteza: { $reason }
puzzle-play-won = Rešeno: do zmage { $placements ->
    [one] je bila potrebna { $placements } postavitev
    [two] sta bili potrebni { $placements } postavitvi
    [few] so bile potrebne { $placements } postavitve
   *[other] je bilo potrebnih { $placements } postavitev
}.
puzzle-play-lost = Tokrat ne: zmage ni več mogoče doseči. Rešitev je bila { $moves }.

## Stran za igro v brskalniku (quads serve)

nav-leaderboard = lestvica
nav-play = igraj
nav-final = finale
nav-host = organizator
nav-me = jaz ({ $name })
nav-log-in = prijava
nav-sign-up = registracija
nav-log-out = odjava
web-language = Jezik
web-play = Igraj
web-intro = Igraj partijo Quads ali klasičnega Quarta: proti eni od petih stopenj, s prijateljem na tej napravi ali uganko dneva.
web-game = Igra
web-against-level = proti stopnji { $level }
web-random = (naključna)
web-perfect = (popolna)
web-two = dva igralca na tej napravi
web-puzzle = uganka dneva
web-rules = Pravila
web-rules-quads = Quads (vrstice, stolpci, diagonali in kvadrati 2×2)
web-rules-classic = klasični Quarto
web-rules-announce = klasični Quarto, zmaga se napove s „Quarto!“
web-level-begins = naj začne stopnja ali bot
web-start = začni
web-title-level = Proti stopnji { $level }
web-title-bot = Proti botu udeleženca { $name }
web-against-bot = proti botu udeleženca { $name }
web-bots = Boti udeležencev
web-bot-thinking = Bot udeleženca { $name } razmišlja; stran bo pokazala njegovo potezo, ko jo bo naredil.
web-look-again = poglej znova
web-bot-forfeit = Bot udeleženca { $name } je izgubil zaradi lastne napake ({ $why }): zmagal si.
web-clock = ura
web-no-clock = brez ure
web-clock-of = { $player }: { $time }
web-flagged = { $who ->
    [you] Zmanjkalo ti je časa: izgubil si.
   *[other] Čas je potekel: { $player } izgubi.
}
web-title-two = Dva igralca
web-title-puzzle = Uganka dne { $date }
web-rules-now = Pravila: { $rules }.
web-address = Naslov te igre, da se vrneš k njej ali jo deliš:
web-board = Plošča
web-board-place = Plošča: izberi, kam gre { $piece }
web-give = Figura za podajo
web-typed = ali vpiši potezo
web-play-button = igraj
web-no-moves = Še nobene.
web-new-game = nova igra
web-status-place = { $player }: postavi { $piece }, nato podaj figuro.
web-lose = Izgubil si.
web-solved = Rešeno.
web-not-solved = Ni rešeno: zmaga je bila mogoča. Poskusi znova jutri ali začni znova.
web-moved-on = Igra je medtem napredovala: poglej znova.
web-not-yours = Nisi na potezi.
web-choose = Izberi polje in figuro ali vpiši potezo.
web-view-text = besedilni način, za bralnike zaslona
web-view-board = narisana plošča
web-rows = Plošča, vrstica za vrstico
web-row = Vrstica { $row }: { $squares }.
web-empty = prazno
web-in-hand = V roki: { $piece }.
web-left = Figure, ki jih še lahko podaš: { $pieces }.
web-your-move = Tvoja poteza: polje in figura za podajo, na primer A2 BDRF
web-claimable = Zadnja figura je dopolnila lik, ki ni bil napovedan: vpiši quarto in zahtevaj zmago.
web-last = Zadnja poteza: { $turn }
# A level (stopnja) is feminine: its verbs agree ($who is `level`).
web-turn-give = { $who ->
    [you] Podal si { $piece }.
    [level] { $player } je podala { $piece }.
   *[other] { $player } je podal { $piece }.
}
web-turn-place = { $who ->
    [you] Postavil si { $placed } na { $square } in podal { $piece }.
    [level] { $player } je postavila { $placed } na { $square } in podala { $piece }.
   *[other] { $player } je postavil { $placed } na { $square } in podal { $piece }.
}
web-turn-end = { $who ->
    [you] Postavil si { $placed } na { $square }.
    [level] { $player } je postavila { $placed } na { $square }.
   *[other] { $player } je postavil { $placed } na { $square }.
}
web-turn-quarto = { $who ->
    [you] Postavil si { $placed } na { $square } in napovedal „Quarto!“.
    [level] { $player } je postavila { $placed } na { $square } in napovedala „Quarto!“.
   *[other] { $player } je postavil { $placed } na { $square } in napovedal „Quarto!“.
}
web-turn-claim = { $who ->
    [you] Zahteval si lik, ki ni bil napovedan: „Quarto!“.
    [level] { $player } je zahtevala lik, ki ni bil napovedan: „Quarto!“.
   *[other] { $player } je zahteval lik, ki ni bil napovedan: „Quarto!“.
}
web-review = Analiza reševalnika
web-review-link = analiza te igre, ki jo je naredil reševalnik
web-download = prenesi igro (games.jsonl)
web-back = nazaj na igro
web-col-who = kdo
web-col-move = poteza
web-col-word = ocena reševalnika
web-unjudged = ni ocenjena (več kot { $empty } praznih polj)
web-kept = ohranjeno: { $value }
web-mistake = napaka: prej { $before }, potem { $after }
web-missed-win = zamujena zmaga
web-better = { $move } bi ohranila vrednost
web-try-again = poskusi znova od tu
web-rules-link = pravila
web-variants = Različice
