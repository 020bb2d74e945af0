// The floor of `typewire bench`'s scenario 2 on a machine: what the kernel alone costs per delivered frame.
//
// A relay in C with nothing on top of the system calls: N loopback TCP sockets in groups of 10; each frame of
// FRAME bytes that arrives on a socket is written to every socket of its group, one write() per delivery (as
// Typewire and its relay do at scenario 2's load, where a socket gets about 4 frames a second and so one
// frame per flush); epoll, level-triggered, non-blocking sockets, TCP_NODELAY. A child process is the load: it
// sends RATE frames a second over its N sockets in 1 ms ticks and drains what comes back. After WARM seconds
// the relay measures its own CPU (getrusage) for SECS seconds and prints it per delivered frame, user and system.
// On loopback the receiving side's TCP work runs in the sender's system call, so the system time includes it,
// as it does for a server measured by `typewire bench`.
//
//   gcc -O2 -o /tmp/floor_relay scripts/floor_relay.c
//   ulimit -n 20000; /tmp/floor_relay 10000 4100 200 20     # N, frames/s in, bytes per frame, seconds
//
// No WebSocket framing, no parsing, no JSON: a lower bound for any server doing scenario 2's deliveries here.
#define _GNU_SOURCE
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { GROUP = 10, WARM = 3, BUFFER = 1 << 16 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void cpu(double *user, double *system) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    *user = r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6;
    *system = r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

static void watch(int epoll, int fd) {
    struct epoll_event event = {.events = EPOLLIN, .data.fd = fd};
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

/// The load: connects `n` sockets, sends `rate` frames a second spread over them, drains every reply.
static void load(struct sockaddr_in address, int n, int rate, int frameSize, int seconds) {
    int one = 1, epoll = epoll_create1(0), *sockets = malloc(sizeof(int) * n);
    char *frame = malloc(frameSize), *buffer = malloc(BUFFER);
    memset(frame, 'x', frameSize);
    for (int i = 0; i < n; i++) {
        sockets[i] = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(sockets[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(sockets[i], (void *)&address, sizeof address) < 0) { perror("connect"); _exit(1); }
        fcntl(sockets[i], F_SETFL, O_NONBLOCK);
        watch(epoll, sockets[i]);
    }
    sleep(1);
    struct epoll_event events[512];
    double start = now();
    long sent = 0;
    unsigned next = 0;
    while (now() - start < WARM + seconds + 1) {
        long due = (long)((now() - start) * rate);
        for (; sent < due; sent++, next++) {
            if (write(sockets[(next * 7919u) % n], frame, frameSize) != frameSize) { perror("load write"); _exit(1); }
        }
        int ready = epoll_wait(epoll, events, 512, 1);
        for (int i = 0; i < ready; i++) {
            while (read(events[i].data.fd, buffer, BUFFER) > 0) {}
        }
    }
    _exit(0);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 10000, rate = argc > 2 ? atoi(argv[2]) : 4100;
    int frameSize = argc > 3 ? atoi(argv[3]) : 200, seconds = argc > 4 ? atoi(argv[4]) : 20;
    if (n < GROUP || n % GROUP || frameSize < 1 || frameSize > BUFFER) {
        fprintf(stderr, "usage: %s SOCKETS(multiple of %d) FRAMES_PER_SECOND BYTES_PER_FRAME SECONDS\n", argv[0], GROUP);
        return 2;
    }
    int one = 1, listener = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001)};
    socklen_t length = sizeof address;
    if (bind(listener, (void *)&address, sizeof address) || listen(listener, 4096)) { perror("listen"); return 1; }
    getsockname(listener, (void *)&address, &length);
    pid_t loader = fork();
    if (loader == 0) { close(listener); load(address, n, rate, frameSize, seconds); }

    int epoll = epoll_create1(0), *sockets = malloc(sizeof(int) * n);
    int *position = malloc(sizeof(int) * (n + 1024)), *partial = calloc(n + 1024, sizeof(int));
    char *buffer = malloc(BUFFER);
    for (int i = 0; i < n; i++) {
        sockets[i] = accept4(listener, 0, 0, SOCK_NONBLOCK);
        if (sockets[i] < 0 || sockets[i] >= n + 1024) { perror("accept"); return 1; }
        setsockopt(sockets[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        position[sockets[i]] = i;
        watch(epoll, sockets[i]);
    }
    struct epoll_event events[512];
    long delivered = 0, failed = 0, before = 0;
    double user0 = 0, system0 = 0, start = now(), windowStart = 0;
    for (;;) {
        double t = now();
        if (!windowStart && t - start >= WARM + 1) { cpu(&user0, &system0); windowStart = t; before = delivered; }
        if (windowStart && t - windowStart >= seconds) break;
        int ready = epoll_wait(epoll, events, 512, 100);
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            ssize_t count = read(fd, buffer, BUFFER);
            if (count <= 0) continue;
            int frames = (partial[fd] + count) / frameSize, group = position[fd] / GROUP;
            partial[fd] = (partial[fd] + count) % frameSize;
            for (int f = 0; f < frames; f++) {
                for (int j = 0; j < GROUP; j++, delivered++) {
                    if (write(sockets[group * GROUP + j], buffer, frameSize) != frameSize) failed++;
                }
            }
        }
    }
    double user1, system1, elapsed = now() - windowStart;
    cpu(&user1, &system1);
    long frames = delivered - before;
    printf("%d sockets, %d-byte frames, %ld deliveries in %.1f s (%.0f/s), %ld writes short or failed\n",
           n, frameSize, frames, elapsed, frames / elapsed, failed);
    printf("relay CPU per delivered frame: user %.2f us, system %.2f us, total %.2f us\n",
           (user1 - user0) / frames * 1e6, (system1 - system0) / frames * 1e6,
           (user1 - user0 + system1 - system0) / frames * 1e6);
    kill(loader, SIGKILL);
    waitpid(loader, 0, 0);
    return failed ? 1 : 0;
}
