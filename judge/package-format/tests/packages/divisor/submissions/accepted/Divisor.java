// Trial division; says "Prime" with a capital letter, which the statement allows.
import java.util.Scanner;

public class Divisor {
    public static void main(String[] args) {
        long n = new Scanner(System.in).nextLong();
        for (long d = 2; d * d <= n; d++) {
            if (n % d == 0) {
                System.out.println(d);
                return;
            }
        }
        System.out.println("Prime");
    }
}
