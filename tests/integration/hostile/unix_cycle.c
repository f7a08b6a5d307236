// Leaves a kernel object behind for the next case (issue 33.4): binds an abstract Unix socket
// name, then makes a cycle the kernel's garbage collector alone can free (each of two sockets
// holds the other in flight, sent with SCM_RIGHTS) and exits. A later case that finds the name
// taken (bind fails with EADDRINUSE) knows a case ran before it in its network namespace, and
// answers differently: with the answer, 0, only when the name was free. So a run whose verdicts
// depend on the order of its tests carried something over.
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void send_fd(int via, int fd) {
    char byte = 'x';
    struct iovec iov = {&byte, 1};
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    struct msghdr message = {0};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    struct cmsghdr *c = CMSG_FIRSTHDR(&message);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof(int));
    sendmsg(via, &message, 0);
}

int main(void) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    const char name[] = "boardjudge-left-behind";
    memcpy(address.sun_path + 1, name, sizeof name - 1);
    socklen_t length = offsetof(struct sockaddr_un, sun_path) + 1 + sizeof name - 1;
    int named = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (bind(named, (struct sockaddr *)&address, length) != 0) {
        printf("the name was taken (%s)\n", strerror(errno));
        return 0;
    }
    // The named socket and a pair: each end of the pair holds the other and the named one in
    // flight, so none is freed when the process closes its descriptors.
    int pair[2];
    socketpair(AF_UNIX, SOCK_DGRAM, 0, pair);
    send_fd(pair[0], pair[1]);
    send_fd(pair[1], pair[0]);
    send_fd(pair[0], named);
    puts("0");
    return 0;
}
