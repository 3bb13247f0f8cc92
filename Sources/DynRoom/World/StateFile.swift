#if canImport(Glibc)
import Glibc
#endif

/// The `--state` file on disk (docs/STATE.md).
///
/// Guarantees: `save` never leaves a half-written file under `path`: it writes `path.tmp`, fsyncs it,
/// renames it over `path` and fsyncs the directory, so after a crash (SIGKILL, power loss) the file is the
/// previous whole state or the new whole state. `quarantine` moves a bad file aside as
/// `path.bad-<UTC time>` without overwriting anything already there. Only a regular file (or none yet) is
/// ever read, replaced or moved: a `--state` naming a device, a directory or a pipe (say `/dev/null`) is
/// refused, since renaming over it or moving it aside would break the system, not save a world.
package struct StateFile {
    package let path: String

    package init(path: String) { self.path = path }

    /// Why `path` cannot hold a state file (it exists and is not a regular file), or nil when it can.
    package func unusableReason() -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFREG ? nil : "not a regular file (a state file is replaced on every save)"
    }

    /// Writes `bytes` atomically.
    package func save(_ bytes: [UInt8]) throws(StateError) {
        if let problem = unusableReason() { throw StateError("cannot save to \(path): \(problem)") }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StateError("cannot write \(temporary): \(StateFile.lastError())") }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let reason = StateFile.lastError()
                close(fd)
                unlink(temporary)
                throw StateError("cannot write \(temporary): \(reason)")
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let reason = StateFile.lastError()
            close(fd)
            unlink(temporary)
            throw StateError("cannot fsync \(temporary): \(reason)")
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = StateFile.lastError()
            unlink(temporary)
            throw StateError("cannot rename \(temporary) to \(path): \(reason)")
        }
        // The rename itself is durable only once the directory is.
        let directory = open(StateFile.directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// The file's bytes; nil when there is no file (a first start).
    package func load() throws(StateError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StateError("cannot read \(path): \(StateFile.lastError())")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw StateError("cannot read \(path): \(StateFile.lastError())") }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// Moves the file aside as `path.bad-<UTC time>` (with a counter if that exists); the new path, or nil
    /// when it could not be moved.
    package func quarantine() -> String? {
        guard unusableReason() == nil else { return nil }
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var text = [CChar](repeating: 0, count: 32)
        strftime(&text, text.count, "%Y%m%dT%H%M%SZ", &parts)
        let stamp = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for attempt in 0..<100 {
            let target = "\(path).bad-\(stamp)" + (attempt == 0 ? "" : "-\(attempt)")
            guard access(target, F_OK) != 0 else { continue }
            if rename(path, target) == 0 { return target }
            return nil
        }
        return nil
    }

    package static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let directory = String(path[..<slash])
        return directory.isEmpty ? "/" : directory
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
