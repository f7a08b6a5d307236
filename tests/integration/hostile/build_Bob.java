// Another team's submission, beside Alice.java.
public class Bob { public static void main(String[] args) { System.out.println("0"); } }
