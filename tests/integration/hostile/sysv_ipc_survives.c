/* Leaves SysV shared memory, a semaphore set and a message queue behind, keyed by the number
   given as "key=N", and answers right only while the shared counter says it is the first run
   to see them: with a new IPC namespace per run every run is the first (AC), and nothing is
   left on the host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
int main(int argc, char **argv) {
    key_t key = argc > 1 ? (key_t)strtol(argv[1] + 4, 0, 10) : 0x5a5a18;
    int id = shmget(key, 4096, IPC_CREAT | 0666);
    if (id < 0) { puts("x"); return 0; }
    int *counter = shmat(id, 0, 0);
    if (counter == (void *)-1) { puts("x"); return 0; }
    semget(key, 1, IPC_CREAT | 0666);
    msgget(key, IPC_CREAT | 0666);
    puts(++*counter == 1 ? "0" : "1");
    return 0;
}
