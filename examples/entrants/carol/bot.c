/* Quads Arena starter bot in C: random legal moves, standard library only. See protocol.md.
   Build: cc -O2 -o bot bot.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *LETTERS[4] = {"BS", "DL", "RQ", "FH"}; /* size, color, shape, fill: bit 0 / bit 1 */
static const char *TRAITS[4] = {"size", "color", "shape", "fill"};
static int shapes[19][4], nshapes; /* squares are numbered row by row from A1 = 0 */
static uint64_t rng = 1;           /* splitmix64 state, seeded from newgame's seed */
static int squares = 1, traits = 15, announce = 0; /* the rules of the current game */

static uint64_t next_random(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int pick(int n) { return (int)(next_random() % (uint64_t)n); }

static int bits(const char *piece) { /* "BDQF" -> a 4-bit number, one bit per trait */
    int b = 0;
    for (int i = 0; i < 4; i++) b |= (piece[i] == LETTERS[i][1]) << i;
    return b;
}

static void parse_rules(const char *spec) { /* e.g. "quads", "classic,traits=color,claim=announce" */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    squares = strncmp(buf, "quads", 5) == 0;
    traits = 15;
    announce = 0;
    for (char *s = strtok(buf, ","); s; s = strtok(NULL, ",")) {
        if (strcmp(s, "squares=on") == 0) squares = 1;
        else if (strcmp(s, "squares=off") == 0) squares = 0;
        else if (strcmp(s, "claim=announce") == 0) announce = 1;
        else if (strcmp(s, "claim=auto") == 0) announce = 0;
        else if (strncmp(s, "traits=", 7) == 0) {
            traits = 0;
            for (int i = 0; i < 4; i++)
                for (char *t = s + 7; *t; t += strcspn(t, "+"), t += *t == '+')
                    if (strncmp(t, TRAITS[i], strlen(TRAITS[i])) == 0) traits |= 1 << i;
        }
    }
    nshapes = 0;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) shapes[r][c] = r * 4 + c, shapes[4 + c][r] = r * 4 + c;
    for (int i = 0; i < 4; i++) shapes[8][i] = i * 5, shapes[9][i] = 3 + i * 3;
    nshapes = 10;
    if (squares)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++, nshapes++) {
                int s = r * 4 + c;
                shapes[nshapes][0] = s, shapes[nshapes][1] = s + 1;
                shapes[nshapes][2] = s + 4, shapes[nshapes][3] = s + 5;
            }
}

/* Does a full shape through `square` share a trait that counts? (-1 is an empty square) */
static int wins(const int *board, int square) {
    for (int k = 0; k < nshapes; k++) {
        const int *sh = shapes[k];
        int a = board[sh[0]], b = board[sh[1]], c = board[sh[2]], d = board[sh[3]];
        if (sh[0] != square && sh[1] != square && sh[2] != square && sh[3] != square) continue;
        if (a < 0 || b < 0 || c < 0 || d < 0) continue;
        if (~(a ^ b) & ~(a ^ c) & ~(a ^ d) & traits) return 1;
    }
    return 0;
}

/* Your strategy goes here: choose the reply to a `go` line, given its words. */
static void choose(char **w, int n, char *out, size_t size) {
    const char *rows = w[2], *hand = w[3], *remaining[16];
    int nrem = 0, board[16], nboard = 0, empty[16], nempty = 0;
    if (n > 4 && strcmp(w[4], "claimable") == 0) { /* the opponent missed a win: claim it */
        snprintf(out, size, "quarto");
        return;
    }
    int i = 0;
    while (i < n && strcmp(w[i], "remaining") != 0) i++;
    for (i++; i < n && strcmp(w[i], "last") != 0; i++)
        if (strcmp(w[i], "-") != 0 && nrem < 16) remaining[nrem++] = w[i];
    if (strcmp(hand, "-") == 0) { /* the opening give */
        snprintf(out, size, "%s", remaining[pick(nrem)]);
        return;
    }
    for (int r = 3; r >= 0; r--) { /* rows arrive from row 4 down; build from row 1 up */
        const char *row = rows;
        for (int k = 0; k < r; k++) row = strchr(row, '/') + 1;
        for (; *row && *row != '/' && nboard < 16; row += *row == '.' ? 1 : 4)
            board[nboard++] = *row == '.' ? -1 : bits(row);
    }
    for (i = 0; i < 16; i++)
        if (board[i] < 0) empty[nempty++] = i;
    int square = empty[pick(nempty)];
    board[square] = bits(hand);
    char name[3] = {(char)('A' + square % 4), (char)('1' + square / 4), 0};
    if (wins(board, square))
        snprintf(out, size, "%s%s", name, announce ? " quarto" : "");
    else if (nrem == 0) /* the board is full: give nothing */
        snprintf(out, size, "%s", name);
    else
        snprintf(out, size, "%s %s", name, remaining[pick(nrem)]);
}

int main(void) {
    static char line[70000];
    char *w[64], reply[64];
    setvbuf(stdout, NULL, _IOLBF, 0); /* flush after every line */
    parse_rules("quads");
    while (fgets(line, sizeof line, stdin)) { /* one message per line */
        int n = 0;
        for (char *t = strtok(line, " \t\r\n"); t && n < 64; t = strtok(NULL, " \t\r\n")) w[n++] = t;
        if (n == 0) continue;
        if (strcmp(w[0], "quads") == 0) {
            printf(n > 1 && strcmp(w[1], "1") == 0 ? "id name c-starter\nquadsok\n" : "unsupported\n");
        } else if (strcmp(w[0], "isready") == 0) {
            printf("readyok\n");
        } else if (strcmp(w[0], "newgame") == 0) {
            for (int i = 1; i + 1 < n; i++) {
                if (strcmp(w[i], "rules") == 0) parse_rules(w[i + 1]);
                if (strcmp(w[i], "seed") == 0) rng = strtoull(w[i + 1], NULL, 10);
            }
        } else if (strcmp(w[0], "go") == 0 && n >= 4) {
            choose(w, n, reply, sizeof reply);
            printf("move %s\n", reply);
        } else if (strcmp(w[0], "quit") == 0) {
            break;
        }
        fflush(stdout);
    }
    return 0;
}
