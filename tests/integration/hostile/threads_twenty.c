/* Starts 20 threads at once (as a Python program with a thread pool would), then answers. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
static void *idle(void *arg) { (void)arg; usleep(200 * 1000); return 0; }
int main(void) {
    pthread_t t[20];
    for (int i = 0; i < 20; i++)
        if (pthread_create(&t[i], 0, idle, 0) != 0) { puts("x"); return 0; }
    for (int i = 0; i < 20; i++) pthread_join(t[i], 0);
    puts("0");
    return 0;
}
