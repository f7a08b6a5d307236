// Build time: javac's default source path is the working directory: naming another team's
// class compiles and runs THEIR code (Bob.java lies beside this file).
public class Alice { public static void main(String[] args) throws Exception { Bob.main(args); } }
