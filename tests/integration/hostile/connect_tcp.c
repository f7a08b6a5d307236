/* Connects to 127.0.0.1:PORT (PORT in argv[1]); on success it would print the right answer
   ("0"), so AC would mean the sandbox let it out. Blocked: prints "blocked" (WA). */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(argc > 1 ? atoi(argv[1]) : 80);
    a.sin_addr.s_addr = htonl(0x7f000001);
    if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0) { puts("0"); return 0; }
    puts("blocked");
    return 0;
}
