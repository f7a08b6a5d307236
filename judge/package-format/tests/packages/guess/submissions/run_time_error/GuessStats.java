// Crashes after finding x when its first guess was right: the statistics it logs divide by
// the number of wrong guesses, which is then zero (ArithmeticException).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

public class GuessStats {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        long n = Long.parseLong(in.readLine().trim());
        long lo = 1, hi = n;
        int guesses = 0;
        while (true) {
            long mid = lo + (hi - lo) / 2;
            System.out.println(mid);
            System.out.flush();
            guesses++;
            String answer = in.readLine();
            if (answer == null) return;
            answer = answer.trim();
            if (answer.equals("correct")) break;
            if (answer.equals("higher")) lo = mid + 1;
            else hi = mid - 1;
        }
        int wrong = guesses - 1;
        System.err.println("range shrank by " + n / wrong + " per wrong guess");
    }
}
