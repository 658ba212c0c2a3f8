public import Foundation
import Synchronization

/// A program the tests start, with the parts of Foundation's `Process` they use, started by `posix_spawn` directly.
///
/// Foundation's `Process.run` on Linux lists `/proc/self/fd` to close the parent's descriptors in the child, copying
/// each directory entry whole (256 bytes of name) from glibc's read buffer: with some 1,400 descriptors open (a test
/// process running many tests at once has that many), an entry at the buffer's end is copied from past it, and the
/// test process crashed now and then when that memory was not mapped. Here the child closes every descriptor above
/// its standard three itself (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), which also means no descriptor
/// another test opens at the same moment leaks into it. Waiting for the exit is one thread per child, blocked in
/// `waitpid` for that child only.
public final class ChildProcess: @unchecked Sendable {
    private struct State {
        var pid: pid_t = 0
        var running = false
        var status: Int32 = 0
        var reason: Process.TerminationReason = .exit
    }

    /// The program.
    public var executableURL: URL?
    /// Its arguments (without the program itself).
    public var arguments: [String] = []
    /// Its whole environment; `nil` passes this process's.
    public var environment: [String: String]?
    /// Its working directory; `nil` keeps this process's.
    public var currentDirectoryURL: URL?
    /// A `Pipe` or `FileHandle` for standard input; `nil` is `/dev/null`. By default the parent's.
    public var standardInput: Any? = FileHandle.standardInput
    /// A `Pipe` or `FileHandle` for standard output; `nil` is `/dev/null`. By default the parent's.
    public var standardOutput: Any? = FileHandle.standardOutput
    /// A `Pipe` or `FileHandle` for standard error; `nil` is `/dev/null`. By default the parent's.
    public var standardError: Any? = FileHandle.standardError

    private let state = Mutex(State())
    private let exited = NSCondition()

    /// A program not yet started.
    public init() {}

    /// Its process id, once started.
    public var processIdentifier: Int32 { state.withLock { $0.pid } }
    /// Whether it was started and has not exited yet.
    public var isRunning: Bool { state.withLock { $0.running } }
    /// Its exit status, or the signal that ended it.
    public var terminationStatus: Int32 { state.withLock { $0.status } }
    /// Whether it exited or a signal ended it.
    public var terminationReason: Process.TerminationReason { state.withLock { $0.reason } }

    /// Starts it: in a process group of its own, as `Process` does, with only its standard three descriptors, no signal
    /// blocked and none ignored.
    public func run() throws {
        guard let executableURL else { throw ChildProcessError.noExecutable }
        let path = executableURL.path
        var actions = posix_spawn_file_actions_t()
        try Self.check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
        defer { posix_spawn_file_actions_destroy(&actions) }
        var givenAway: [FileHandle] = []
        for (target, handle, reading) in [(STDIN_FILENO, standardInput, true), (STDOUT_FILENO, standardOutput, false),
                                          (STDERR_FILENO, standardError, false)] {
            switch handle {
            case let pipe as Pipe:
                let child = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                try Self.check(posix_spawn_file_actions_adddup2(&actions, child.fileDescriptor, target), "adddup2")
                givenAway.append(child)
            case let file as FileHandle where file === FileHandle.nullDevice:
                try Self.check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0),
                               "addopen")
            case let file as FileHandle:
                guard file.fileDescriptor != target else { continue }
                try Self.check(posix_spawn_file_actions_adddup2(&actions, file.fileDescriptor, target), "adddup2")
            case nil:
                try Self.check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reading ? O_RDONLY : O_WRONLY, 0),
                               "addopen")
            default:
                throw ChildProcessError.unsupportedHandle(target)
            }
        }
        try Self.check(Self.closeFrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np")
        if let directory = currentDirectoryURL?.path {
            try Self.check(Self.changeDirectory(&actions, directory), "posix_spawn_file_actions_addchdir_np")
        }
        var attributes = posix_spawnattr_t()
        try Self.check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals as a shell would leave them: none blocked (the thread starting it may block some, for a dispatch
        // source's signalfd, and a child inherits that: a SIGTERM would then wait forever) and none ignored.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        try Self.check(posix_spawnattr_setsigmask(&attributes, &none), "posix_spawnattr_setsigmask")
        try Self.check(posix_spawnattr_setsigdefault(&attributes, &all), "posix_spawnattr_setsigdefault")
        try Self.check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK
            | POSIX_SPAWN_SETSIGDEF)), "posix_spawnattr_setflags")

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [
                NSFilePathErrorKey: path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO),
            ])
        }
        // The child has its copies; the parent's ends it gave away are closed, so a pipe's reader sees its end.
        var closed = Set<Int32>()
        for handle in givenAway where closed.insert(handle.fileDescriptor).inserted { try? handle.close() }
        let child = pid
        state.withLock {
            $0.pid = child
            $0.running = true
        }
        let waiter = Thread { [self] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1, errno == EINTR {}
            let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
            exited.lock()
            state.withLock {
                $0.status = signalled ? status & 0x7f : (status >> 8) & 0xff
                $0.reason = signalled ? .uncaughtSignal : .exit
                $0.running = false
            }
            exited.broadcast()
            exited.unlock()
        }
        waiter.name = "child \(child)"
        waiter.start()
    }

    /// Blocks the calling thread until it has exited.
    public func waitUntilExit() {
        exited.lock()
        while isRunning { exited.wait() }
        exited.unlock()
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { signal(SIGINT) }

    private func signal(_ number: Int32) {
        let pid = processIdentifier
        if pid > 0 { kill(pid, number) }
    }

    private static func check(_ result: Int32, _ call: String) throws {
        guard result == 0 else { throw ChildProcessError.spawnSetUp(call, result) }
    }

    // glibc declares these two only for _GNU_SOURCE, which Swift's import of it leaves out: looked up by name.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                                         UnsafePointer<CChar>) -> Int32
    private nonisolated(unsafe) static let library = dlopen(nil, RTLD_NOW)
    private static let closeFromFunction = dlsym(library, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectoryFunction = dlsym(library, "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }

    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        closeFromFunction?(actions, lowest) ?? ENOSYS
    }

    private static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                        _ path: String) -> Int32 {
        changeDirectoryFunction?(actions, path) ?? ENOSYS
    }
}

/// Why a ``ChildProcess`` could not start.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// `executableURL` was not set.
    case noExecutable
    /// A standard descriptor was given something other than a `Pipe`, a `FileHandle` or `nil`.
    case unsupportedHandle(Int32)
    /// A `posix_spawn` set-up call failed with this error number.
    case spawnSetUp(String, Int32)

    public var description: String {
        switch self {
        case .noExecutable: "no executable set"
        case .unsupportedHandle(let descriptor): "descriptor \(descriptor): not a Pipe, a FileHandle or nil"
        case .spawnSetUp(let call, let error): "\(call) failed: \(String(cString: strerror(error)))"
        }
    }
}
