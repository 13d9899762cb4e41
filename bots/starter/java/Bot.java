// Quads Arena starter bot in Java: random legal moves, standard library only. See protocol.md.
// Build: javac -d classes Bot.java    Run: java -cp classes Bot
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class Bot {
    private static final String[] LETTERS = {"BS", "DL", "RQ", "FH"}; // size, color, shape, fill: bit 0 / bit 1
    private static final String[] TRAITS = {"size", "color", "shape", "fill"};

    private long rng = 1; // splitmix64 state, seeded from newgame's seed
    private boolean squares = true, announce = false; // the rules of the current game
    private int traits = 15;
    private final List<int[]> shapes = new ArrayList<>(); // squares numbered row by row from A1 = 0

    private long nextRandom() {
        long z = (rng += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private int pick(int n) {
        return (int) Long.remainderUnsigned(nextRandom(), n);
    }

    /** "BDQF" as a 4-bit number, one bit per trait. */
    private static int bits(String piece) {
        int b = 0;
        for (int i = 0; i < 4; i++) {
            if (piece.charAt(i) == LETTERS[i].charAt(1)) b |= 1 << i;
        }
        return b;
    }

    /** A rules spec: "quads", "classic,traits=color,claim=announce". */
    private void parseRules(String spec) {
        String[] items = spec.split(",");
        squares = items[0].equals("quads");
        traits = 15;
        announce = false;
        for (String s : items) {
            if (s.equals("squares=on")) squares = true;
            else if (s.equals("squares=off")) squares = false;
            else if (s.equals("claim=announce")) announce = true;
            else if (s.equals("claim=auto")) announce = false;
            else if (s.startsWith("traits=")) {
                traits = 0;
                for (String t : s.substring(7).split("\\+")) {
                    for (int i = 0; i < 4; i++) if (t.equals(TRAITS[i])) traits |= 1 << i;
                }
            }
        }
        shapes.clear();
        for (int r = 0; r < 4; r++) {
            shapes.add(new int[] {r * 4, r * 4 + 1, r * 4 + 2, r * 4 + 3});
            shapes.add(new int[] {r, r + 4, r + 8, r + 12});
        }
        shapes.add(new int[] {0, 5, 10, 15});
        shapes.add(new int[] {3, 6, 9, 12});
        if (squares) {
            for (int r = 0; r < 3; r++) {
                for (int c = 0; c < 3; c++) {
                    int s = r * 4 + c;
                    shapes.add(new int[] {s, s + 1, s + 4, s + 5});
                }
            }
        }
    }

    /** Does a full shape through `square` share a trait that counts? (-1 is an empty square) */
    private boolean wins(int[] board, int square) {
        for (int[] sh : shapes) {
            if (sh[0] != square && sh[1] != square && sh[2] != square && sh[3] != square) continue;
            int a = board[sh[0]], b = board[sh[1]], c = board[sh[2]], d = board[sh[3]];
            if (a < 0 || b < 0 || c < 0 || d < 0) continue;
            if ((~(a ^ b) & ~(a ^ c) & ~(a ^ d) & traits) != 0) return true;
        }
        return false;
    }

    /** Your strategy goes here: the reply to a `go` line, given its words. */
    private String choose(String[] w) {
        if (w.length > 4 && w[4].equals("claimable")) return "quarto"; // the opponent missed a win
        List<String> remaining = new ArrayList<>();
        int i = 0;
        while (i < w.length && !w[i].equals("remaining")) i++;
        for (i++; i < w.length && !w[i].equals("last"); i++) {
            if (!w[i].equals("-")) remaining.add(w[i]);
        }
        String hand = w[3];
        if (hand.equals("-")) return remaining.get(pick(remaining.size())); // the opening give
        int[] board = new int[16];
        int n = 0;
        String[] rows = w[2].split("/"); // rows arrive from row 4 down; build from row 1 up
        for (int r = 3; r >= 0; r--) {
            String row = rows[r];
            for (int k = 0; k < row.length(); ) {
                if (row.charAt(k) == '.') {
                    board[n++] = -1;
                    k++;
                } else {
                    board[n++] = bits(row.substring(k, k + 4));
                    k += 4;
                }
            }
        }
        List<Integer> empty = new ArrayList<>();
        for (int s = 0; s < 16; s++) if (board[s] < 0) empty.add(s);
        int square = empty.get(pick(empty.size()));
        board[square] = bits(hand);
        String name = "" + (char) ('A' + square % 4) + (char) ('1' + square / 4);
        if (wins(board, square)) return announce ? name + " quarto" : name;
        if (remaining.isEmpty()) return name; // the board is full: give nothing
        return name + " " + remaining.get(pick(remaining.size()));
    }

    private void run() throws java.io.IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8); // flush every line
        parseRules("quads");
        String line;
        while ((line = in.readLine()) != null) { // one message per line
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) continue;
            switch (w[0]) {
                case "quads" -> out.print(w.length > 1 && w[1].equals("1") ? "id name java-starter\nquadsok\n" : "unsupported\n");
                case "isready" -> out.print("readyok\n");
                case "newgame" -> {
                    for (int k = 1; k + 1 < w.length; k++) {
                        if (w[k].equals("rules")) parseRules(w[k + 1]);
                        if (w[k].equals("seed")) rng = Long.parseUnsignedLong(w[k + 1]);
                    }
                }
                case "go" -> {
                    if (w.length >= 4) out.print("move " + choose(w) + "\n");
                }
                case "quit" -> {
                    return;
                }
                default -> { } // unknown lines are ignored
            }
            out.flush();
        }
    }

    public static void main(String[] args) throws java.io.IOException {
        new Bot().run();
    }
}
