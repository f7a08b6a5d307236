import java.io.*;
import java.nio.file.*;

public class Main {
    public static void main(String[] args) throws Exception {
        String input = new String(Files.readAllBytes(Paths.get("/dev/stdin")));
        try (PrintStream out = new PrintStream(new FileOutputStream("/dev/stdout"))) {
            out.println(input.split("\n").length == 8 ? 0 : 1);
        }
    }
}
