// reducelab_sandbox_watch REPORT_FD ALLOWED [--loopback] -- COMMAND...: runs COMMAND (a submission's build or
// run, inside lessons/sandbox.sh's bubblewrap sandbox) under a seccomp filter that hands every
// attempt to write a file, make or remove a name, or open an internet socket to this process
// first. A write under ALLOWED (the submission's own build folder) or to /dev/null or a GPU device
// file goes on (the sandbox's mounts still decide); anything else is refused, named on REPORT_FD
// in one line ("write PATH" or "network DOMAIN"), and the command is killed (the whole sandbox
// with it: this is the command bubblewrap's init waits for). The
// exit code is COMMAND's (128 + the signal that ended it); 125 when the watch cannot start.
// The report is for the trusted grader: COMMAND never holds REPORT_FD. With --loopback, internet
// sockets are not watched (the sandbox's own network has loopback alone).
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

#if defined(__x86_64__)
constexpr unsigned this_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned this_arch = AUDIT_ARCH_AARCH64;
#else
#error "reducelab_sandbox_watch knows the system calls of x86-64 and AArch64 only"
#endif

constexpr unsigned write_flags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;

struct Filter {
  std::vector<sock_filter> code;
  void op(unsigned short c, unsigned k, unsigned char jt = 0, unsigned char jf = 0) {
    code.push_back({c, jt, jf, k});
  }
  void load_nr() { op(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
  void load_arg(int i) {  // the low 32 bits of argument i
    op(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offsetof(seccomp_data, args) + 8 * i));
  }
  void ret(unsigned action) { op(BPF_RET | BPF_K, action); }
  // System call nr: always the watch's to decide.
  void always(long nr) {
    op(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 1);
    ret(SECCOMP_RET_USER_NOTIF);
  }
  // System call nr: the watch's when argument `arg` has any of `mask`'s bits.
  void when_bits(long nr, int arg, unsigned mask) {
    op(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 4);
    load_arg(arg);
    op(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1);
    ret(SECCOMP_RET_USER_NOTIF);
    ret(SECCOMP_RET_ALLOW);
  }
};

sock_fprog* filter(bool watch_sockets) {
  static Filter f;
  f.op(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  f.op(BPF_JMP | BPF_JEQ | BPF_K, this_arch, 1, 0);
  f.ret(SECCOMP_RET_KILL_PROCESS);  // another architecture's numbers: nothing to trust
  f.load_nr();
  // io_uring's writes name their paths in shared memory the watch cannot check: the sandbox has no
  // io_uring, as on a kernel built without it (ENOSYS), and its users (CMake's libuv) fall back to
  // the system calls below.
  f.op(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(SYS_io_uring_setup), 0, 1);
  f.ret(SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
  for (const long nr : {
#ifdef SYS_creat
           long{SYS_creat},
           long{SYS_mkdir},
           long{SYS_unlink},
           long{SYS_rename},
           long{SYS_link},
           long{SYS_symlink},
           long{SYS_chmod},
           long{SYS_chown},
           long{SYS_lchown},
           long{SYS_mknod},
#endif
           long{SYS_mkdirat},
           long{SYS_unlinkat},
           long{SYS_renameat2},
           long{SYS_linkat},
           long{SYS_symlinkat},
           long{SYS_truncate},
           long{SYS_fchmodat},
           long{SYS_fchownat},
           long{SYS_mknodat},
           long{SYS_openat2}
#ifdef SYS_renameat
           ,
           long{SYS_renameat}
#endif
       })
    f.always(nr);
#ifdef SYS_open
  f.when_bits(SYS_open, 1, write_flags);
  f.load_nr();
#endif
  f.when_bits(SYS_openat, 2, write_flags);
  f.load_nr();
  if (watch_sockets) {
    f.op(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 5);
    f.load_arg(0);
    f.op(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 2, 0);
    f.op(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 1, 0);
    f.ret(SECCOMP_RET_ALLOW);
    f.ret(SECCOMP_RET_USER_NOTIF);
  }
  f.ret(SECCOMP_RET_ALLOW);
  static sock_fprog prog;
  prog.len = static_cast<unsigned short>(f.code.size());
  prog.filter = f.code.data();
  return &prog;
}

// The path argument `arg` of the notified call, made absolute (from the process's working folder or
// the folder `dirfd` names); empty when it cannot be read, /dev/null for an empty path.
std::string path_of(const seccomp_notif& n, int arg, int dirfd_arg) {
  char buf[PATH_MAX] = {};
  iovec local{buf, sizeof buf - 1},
      remote{reinterpret_cast<void*>(n.data.args[arg]), sizeof buf - 1};
  const pid_t pid = static_cast<pid_t>(n.pid);
  if (::process_vm_readv(pid, &local, 1, &remote, 1, 0) <= 0) return "";
  std::string path(buf);
  if (path.empty()) return "/dev/null";  // mkdir(""), say: fails by itself, writes nothing
  if (path[0] == '/') return path;
  const int dirfd = dirfd_arg < 0 ? AT_FDCWD : static_cast<int>(n.data.args[dirfd_arg]);
  const std::string link = "/proc/" + std::to_string(pid) +
                           (dirfd == AT_FDCWD ? "/cwd" : "/fd/" + std::to_string(dirfd));
  char dir[PATH_MAX] = {};
  const ssize_t len = ::readlink(link.c_str(), dir, sizeof dir - 1);
  return len > 0 ? std::string(dir, static_cast<std::size_t>(len)) + "/" + path : path;
}

// What the notified call does, when it is refused: "write PATH" or "network DOMAIN"; empty when it
// may go on.
std::string judge(const seccomp_notif& n, const std::string& allowed) {
  const long nr = n.data.nr;
  if (nr == SYS_socket) return n.data.args[0] == AF_INET6 ? "network AF_INET6" : "network AF_INET";
  int arg = 0, dirfd = -1;
  if (nr == SYS_openat || nr == SYS_mkdirat || nr == SYS_unlinkat || nr == SYS_renameat2 ||
      nr == SYS_fchmodat || nr == SYS_fchownat || nr == SYS_mknodat || nr == SYS_openat2)
    arg = 1, dirfd = 0;
  else if (nr == SYS_linkat)
    arg = 3, dirfd = 2;
  else if (nr == SYS_symlinkat)
    arg = 2, dirfd = 1;
#ifdef SYS_renameat
  else if (nr == SYS_renameat)
    arg = 1, dirfd = 0;
#endif
#ifdef SYS_creat
  else if (nr == SYS_link || nr == SYS_symlink)
    arg = 1;
#endif
  const std::string path = path_of(n, arg, dirfd);
  if (path.empty()) return "write (a path it would not let the grader read)";
  const auto under = [&](const std::string& dir) {
    return path == dir || path.rfind(dir + "/", 0) == 0;
  };
  // /dev/tty: the sandbox is a session of its own (bubblewrap's --new-session), with no terminal.
  if (under(allowed) || path == "/dev/null" || path == "/dev/tty" ||
      path.rfind("/dev/nvidia", 0) == 0)
    return "";
  // NVIDIA's driver makes /dev/char/MAJOR:MINOR links to its device files where they are missing:
  // the sandbox's /dev is its own (bubblewrap's --dev), gone with it.
  if (path.rfind("/dev/char/", 0) == 0 && path.find("/..") == std::string::npos) return "";
  // A process's own attributes (a thread naming itself: glibc's pthread_setname_np writes
  // /proc/self/task/T/comm) are no file of anyone's.
  if ((path.rfind("/proc/self/", 0) == 0 || path.rfind("/proc/thread-self/", 0) == 0) &&
      path.find("/..") == std::string::npos)
    return "";
  // Making a folder that is there already fails by itself (CMake makes each folder of a path).
  struct stat st {};
  const bool mkdir_call = nr == SYS_mkdirat
#ifdef SYS_mkdir
                          || nr == SYS_mkdir
#endif
      ;
  if (mkdir_call && ::stat(path.c_str(), &st) == 0) return "";
  // Opening, without creating, a file that is not there fails by itself too (NVIDIA's driver tries
  // /dev/char/195:255 before /dev/nvidiactl; the sandbox's /dev has only the latter).
  bool creates = true;
  if (nr == SYS_openat) creates = (n.data.args[2] & O_CREAT) != 0;
#ifdef SYS_open
  if (nr == SYS_open) creates = (n.data.args[1] & O_CREAT) != 0;
#endif
  if (!creates && ::lstat(path.c_str(), &st) != 0 && errno == ENOENT) return "";
  return "write " + path;
}

}  // namespace

int main(int argc, char** argv) {
  // --loopback: internet sockets go on unwatched (lesson 22: NCCL's bootstrap talks to its own
  // process over TCP); the sandbox's network namespace has nothing but loopback for them to reach.
  const bool loopback = argc > 3 && std::strcmp(argv[3], "--loopback") == 0;
  const int dashes = loopback ? 4 : 3;
  if (argc < dashes + 2 || std::strcmp(argv[dashes], "--") != 0) {
    std::fprintf(stderr,
                 "usage: reducelab_sandbox_watch REPORT_FD ALLOWED [--loopback] -- COMMAND...\n");
    return 125;
  }
  char** const command = argv + dashes + 1;
  const int report = std::atoi(argv[1]);
  const std::string allowed = argv[2];
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return 125;
  const pid_t child = ::fork();
  if (child < 0) return 125;
  if (child == 0) {
    ::close(sv[0]);
    ::close(report);
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(125);
    const int listener = static_cast<int>(::syscall(
        SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, filter(!loopback)));
    if (listener < 0) {
      std::perror("reducelab_sandbox_watch: seccomp");
      _exit(125);
    }
    char byte = 0;
    iovec io{&byte, 1};
    alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))] = {};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = space;
    msg.msg_controllen = sizeof space;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &listener, sizeof(int));
    if (::sendmsg(sv[1], &msg, 0) != 1) _exit(125);
    ::close(listener);
    ::close(sv[1]);
    ::execvp(command[0], command);
    std::perror("reducelab_sandbox_watch: exec");
    _exit(127);
  }
  ::close(sv[1]);
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // no process of the sandbox may trace or read this one
  char byte = 0;
  iovec io{&byte, 1};
  alignas(cmsghdr) char space[CMSG_SPACE(sizeof(int))] = {};
  msghdr msg{};
  msg.msg_iov = &io;
  msg.msg_iovlen = 1;
  msg.msg_control = space;
  msg.msg_controllen = sizeof space;
  int listener = -1;
  if (::recvmsg(sv[0], &msg, 0) == 1 && CMSG_FIRSTHDR(&msg))
    std::memcpy(&listener, CMSG_DATA(CMSG_FIRSTHDR(&msg)), sizeof(int));
  ::close(sv[0]);
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, child, 0));
  std::string refused;
  while (listener >= 0 && pidfd >= 0 && refused.empty()) {
    pollfd p[2] = {{listener, POLLIN, 0}, {pidfd, POLLIN, 0}};
    if (::poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (p[0].revents & POLLIN) {
      seccomp_notif req{};
      if (::ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) continue;  // it went away
      seccomp_notif_resp resp{};
      resp.id = req.id;
      refused = judge(req, allowed);
      if (refused.empty())
        resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
      else
        resp.error = -EACCES;
      ::ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
    } else if (p[1].revents & POLLIN) {
      break;  // the command ended
    } else if (p[0].revents & (POLLHUP | POLLERR)) {
      break;  // no filtered process is left
    }
  }
  if (!refused.empty()) {
    refused += '\n';
    (void)!::write(report, refused.data(), refused.size());
    // The rest of the sandbox ends with this process: bubblewrap's init leaves when its command
    // does, and the kernel then kills every process of the sandbox's PID namespace.
    ::kill(child, SIGKILL);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!refused.empty()) return 126;
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}
