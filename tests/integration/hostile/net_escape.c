/* Reaches for a listener of the test's ("port=N", "unix=PATH") every way Landlock's TCP
   rules miss: MPTCP connect, TCP sendto with MSG_FASTOPEN, UDP sendto, a pathname Unix
   socket, and a socket that listens without bind (its port is sent along, so the test can
   connect back). Always answers 0: the test checks what arrived. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif
int main(int argc, char **argv) {
    int port = atoi(argv[1] + 5);
    const char *unix_path = argv[2] + 5;
    struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    /* Listen without bind: the kernel picks a port. */
    int server = socket(AF_INET, SOCK_STREAM, 0);
    int listening_port = 0;
    if (server >= 0 && listen(server, 4) == 0) {
        struct sockaddr_in me;
        socklen_t len = sizeof me;
        getsockname(server, (struct sockaddr *)&me, &len);
        listening_port = ntohs(me.sin_port);
    }
    char msg[64];
    int mptcp = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
    if (mptcp >= 0 && connect(mptcp, (struct sockaddr *)&to, sizeof to) == 0) {
        snprintf(msg, sizeof msg, "mptcp %d\n", listening_port);
        write(mptcp, msg, strlen(msg));
    }
    int fastopen = socket(AF_INET, SOCK_STREAM, 0);
    snprintf(msg, sizeof msg, "fastopen %d\n", listening_port);
    sendto(fastopen, msg, strlen(msg), MSG_FASTOPEN, (struct sockaddr *)&to, sizeof to);
    int udp = socket(AF_INET, SOCK_DGRAM, 0);
    snprintf(msg, sizeof msg, "udp %d\n", listening_port);
    sendto(udp, msg, strlen(msg), 0, (struct sockaddr *)&to, sizeof to);
    int local = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strncpy(addr.sun_path, unix_path, sizeof addr.sun_path - 1);
    if (connect(local, (struct sockaddr *)&addr, sizeof addr) == 0) {
        snprintf(msg, sizeof msg, "unix %d\n", listening_port);
        write(local, msg, strlen(msg));
    }
    usleep(300 * 1000); /* time for the test to connect back to the listening port */
    puts("0");
    return 0;
}
