/* What does a run see of the host? Its cgroup paths (/proc/self/cgroup), its mounts
   (/proc/self/mountinfo: the judge's groups, staging folders, the host path given as
   host=PATH), its pid and parent, the host name. Prints the answer, 0, if it sees nothing of
   the host, else what it saw. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  const char *host = argc > 1 && strncmp(argv[1], "host=", 5) == 0 ? argv[1] + 5 : "/nonexistent";
  int seen = 0;
  char line[4096];
  FILE *f = fopen("/proc/self/cgroup", "r");
  while (f && fgets(line, sizeof line, f)) {
    size_t n = strlen(line);
    if (n < 3 || strcmp(line + n - 3, ":/\n") != 0) { printf("cgroup %s", line); seen++; }
  }
  if (f) fclose(f);
  f = fopen("/proc/self/mountinfo", "r");
  while (f && fgets(line, sizeof line, f))
    if (strstr(line, "boardjudge") || strstr(line, "staging") || strstr(line, host)) { printf("mount %s", line); seen++; }
  if (f) fclose(f);
  char name[64] = "";
  gethostname(name, sizeof name);
  /* pid 2 of its own PID namespace (pid 1 is its keeper, which it cannot see; without root
     it is pid 1 itself); its parent is outside. */
  if (getpid() > 2 || getppid() != 0 || strcmp(name, "box") != 0) {
    printf("pid %d ppid %d host %s\n", getpid(), getppid(), name);
    seen++;
  }
  if (!seen) puts("0");
  return 0;
}
