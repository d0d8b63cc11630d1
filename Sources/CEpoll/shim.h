// epoll(7), which the Glibc Swift module leaves out; the calls are libc's, so nothing to link.
#include <sys/epoll.h>
