// Build time: __has_include maps the host's disk; #error reports it in the CE message.
#define P(path) __has_include(path)
#if P("@TESTS@/manifest.csv")
#error "found the tests"
#endif
#if P("@TESTS@/sample-2.ans")
#error "found an answer"
#endif
#if P("/etc/shadow")
#error "found /etc/shadow"
#endif
#if P("@MARKER@")
#error "found the host's /tmp"
#endif
int main() {}
