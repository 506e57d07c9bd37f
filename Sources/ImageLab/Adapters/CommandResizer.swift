import ImageCorpus
import Foundation
import ImageCore
import ImageCodecs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An external resizer: any program, run once per (case, operation) pair through `/bin/sh -c`
/// with a ``CommandTemplate`` filled in (`--resizer cmd:'TEMPLATE'` or a config file, see
/// ``ResizerConfig``). Its output file is read with ImageCodecs and judged like any adapter's.
///
/// - **Files.** `{in}` is the corpus file itself (the program reads the real container and
///   orientation), or, when the lab hands over pixels no file holds, an upright 16-bit-capable PNG
///   written into the call's folder. `{out}` is `out.png` in a fresh folder per call under one
///   temporary folder per adapter (`imglab-cmd-PID-N`), removed with the call; the run's folder
///   is removed when the adapter is released.
/// - **Failures** become ``ResizerError/failed(_:)`` with the evidence: the command, the exit
///   status or signal and the last 600 bytes of its stderr; "timed out after N s" (the whole
///   process group is killed); "wrote no output" with the files it did write; "undecodable
///   output" with the decoder's error.
/// - **Parallel-safe**: calls share nothing but a counter; each has its own folder.
public struct CommandResizer: Resizer {
    public var name: String
    /// The default template, for operation kinds without their own.
    public var template: CommandTemplate
    /// Templates by operation name (``OperationRecord/kind``) or `resize:MODE`, overriding
    /// ``template``; the most specific applies.
    public var templates: [String: CommandTemplate]
    public var policy: ResizerPolicy
    /// Seconds a call may take before its process group is killed.
    public var timeout: Double
    /// Whether ``policy`` was declared (a config's `policy` object): `false` for a plain `cmd:`
    /// or a config without one, whose contract a run infers first (``ContractFingerprint``).
    public var declaresPolicy = false
    /// The config file it was read from, as written, and that file's folder (`{dir}`); `nil`
    /// for a plain `cmd:`. A config the fingerprint writes keeps what this one says.
    public var config: (file: ResizerConfig, folder: String)?
    private let workspace: Workspace

    /// An adapter running `template` (and `templates` per operation name, keys in either
    /// spelling of ``ManifestV1Names/operationName(_:)``) with `policy`.
    public init(name: String, template: CommandTemplate, templates: [String: CommandTemplate] = [:],
                policy: ResizerPolicy = .builtin, timeout: Double = 30) {
        self.name = name
        self.template = template
        self.templates = Dictionary(templates.map { (ManifestV1Names.operationName($0.key), $0.value) }) { current, _ in current }
        self.policy = policy
        self.timeout = timeout
        self.workspace = Workspace()
    }

    /// Writes the upright pixels to a PNG and runs the command on it.
    public func apply(_ operation: LabOperation, to source: Image) throws(ResizerError) -> Image {
        try apply(operation, to: source, file: nil)
    }

    public func apply(_ operation: LabOperation, to source: Image, file: String?) throws(ResizerError) -> Image {
        let display = source.displaySize
        let folder = try workspace.callFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if let file { return try run(operation, input: file, width: display.width, height: display.height, in: folder).output }
        let upright = source.oriented()
        let input = folder + "/in.png"
        do {
            // No metadata: an EXIF orientation in it would be applied a second time.
            let bytes = try ImageCodecs.encode(Image(bitmap: upright.bitmap, animation: upright.animation), as: .png)
            try ImageCodecs.writeAtomically(bytes, to: input)
        } catch {
            throw .failed("cannot write the upright source as PNG: \(error)")
        }
        return try run(operation, input: input, width: display.width, height: display.height, in: folder).output
    }

    /// Runs the command on the file `file`, whose displayed size is `width × height` pixels,
    /// without decoding it, and measures what the process cost (the scale profile's way: a
    /// source of tens of megapixels is never decoded by the lab).
    /// - Throws: ``ResizerError`` as ``apply(_:to:file:)``.
    /// - Parameter meter: the path of `imglab-measure`, which runs the command and reports its cost.
    public func measured(_ operation: LabOperation, file: String, width: Int, height: Int, meter: String) throws(ResizerError) -> (output: Image, cost: ProcessCost) {
        let folder = try workspace.callFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (output, cost) = try run(operation, input: file, width: width, height: height, in: folder, meter: meter)
        guard let cost else { throw .failed("\(meter) reported no cost") }
        return (output, cost)
    }

    private func run(_ operation: LabOperation, input: String, width: Int, height: Int, in folder: String,
                     meter: String? = nil) throws(ResizerError) -> (output: Image, cost: ProcessCost?) {
        let output = folder + "/out.png"
        var values = Self.values(for: operation, width: width, height: height, rounding: policy.rounding)
        values["in"] = input
        values["out"] = output
        let keys = ResizerPolicy.operationKeys(operation.record)
        values["tmp"] = folder
        let command = try (keys.lazy.compactMap { templates[$0] }.first ?? template).command(values)
        let run = try ProcessRun.run(command, folder: folder, timeout: timeout, meter: meter)
        guard run.timedOut == false else {
            throw .failed("timed out after \(Self.seconds(timeout)) s (process group killed): \(command)")
        }
        guard run.status == 0 else {
            let tail = run.stderr.isEmpty ? "(no stderr)" : "stderr: " + run.stderr
            throw .failed("\(run.statusText): \(command); \(tail)")
        }
        guard FileManager.default.fileExists(atPath: output) else {
            let present = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") && $0 != "stderr.txt" && $0 != "stdout.txt" }.sorted()
            throw .failed("the command exited 0 but wrote no \(output) (its folder holds: \(present.isEmpty ? "nothing" : present.joined(separator: ", "))): \(command)")
        }
        do {
            return (try ImageCodecs.decode(contentsOf: output), run.cost)
        } catch {
            throw .failed("undecodable output of \(command): \(error)")
        }
    }

    /// The per-pair placeholder values of `operation` on a `width × height` upright source
    /// (without `in` and `out`).
    public static func values(for operation: LabOperation, width: Int, height: Int, rounding: SizeRounding) -> [String: String] {
        var v: [String: String] = ["kind": operation.name, "op": operation.id,
                                   "srcwidth": String(width), "srcheight": String(height),
                                   "width": String(width), "height": String(height)]
        if let placement = try? OracleGeometry.placement(of: operation, width: width, height: height) {
            let size = rounding.size(of: operation, width: width, height: height) ?? (placement.width, placement.height)
            v["outwidth"] = String(size.width)
            v["outheight"] = String(size.height)
        }
        switch operation {
        case .orient:
            break
        case .resize(let w, let h, let mode):
            v["width"] = String(w); v["height"] = String(h); v["mode"] = mode.name
            // Every mode has an anchor (the centre where it crops nothing), so one template serves all.
            var anchor = (x: 0.5, y: 0.5)
            if case .aspectFill(let ax, let ay) = mode { anchor = (ax, ay) }
            do {
                let (ax, ay) = anchor
                v["anchorx"] = number(ax); v["anchory"] = number(ay)
                let horizontal = ["0": "West", "0.5": "", "1": "East"][number(ax)]
                let vertical = ["0": "North", "0.5": "", "1": "South"][number(ay)]
                if let horizontal, let vertical { v["gravity"] = horizontal.isEmpty && vertical.isEmpty ? "Center" : vertical + horizontal }
                v["smartcrop"] = ["0,0": "low", "0.5,0.5": "centre", "1,1": "high"][number(ax) + "," + number(ay)]
            }
        case .crop(let x, let y, let w, let h):
            let x0 = max(Int(x.rounded(.down)), 0), y0 = max(Int(y.rounded(.down)), 0)
            let x1 = min(Int((x + w).rounded(.up)), width), y1 = min(Int((y + h).rounded(.up)), height)
            v["x"] = String(x0); v["y"] = String(y0); v["width"] = String(max(x1 - x0, 0)); v["height"] = String(max(y1 - y0, 0))
        case .squareThumbnail(let size, let border, let radius):
            v["width"] = String(size); v["height"] = String(size); v["size"] = String(size)
            v["border"] = String(border); v["radius"] = number(radius)
        case .roundedCorners(let radius, let border):
            v["border"] = String(border); v["radius"] = number(radius)
        case .transparentBorder(let width):
            v["border"] = String(width)
        case .maxPixelSize(let n):
            v["width"] = String(n); v["height"] = String(n); v["size"] = String(n)
        }
        return v
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
    }

    static func seconds(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// The adapter's temporary folder, created on first use and removed with the last copy of
    /// the adapter.
    private final class Workspace: @unchecked Sendable {
        private let lock = NSLock()
        private var root: String?
        private var calls = 0
        private static let counter = Counter()

        func callFolder() throws(ResizerError) -> String {
            lock.lock(); defer { lock.unlock() }
            if root == nil {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-cmd-\(getpid())-\(Self.counter.next())").path
                do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                    throw .failed("cannot create the temporary folder \(path): \(error)")
                }
                root = path
            }
            calls += 1
            let folder = (root ?? "") + "/call-\(calls)"
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
                throw .failed("cannot create the temporary folder \(folder): \(error)")
            }
            return folder
        }

        deinit {
            if let root { try? FileManager.default.removeItem(atPath: root) }
        }

        final class Counter: @unchecked Sendable {
            private let lock = NSLock()
            private var value = 0
            func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
        }
    }
}

/// One run of `/bin/sh -c COMMAND` in its own process group, stdin from `/dev/null`, stdout and
/// stderr into files of the call's folder, killed (the whole group, SIGKILL) after a timeout.
struct ProcessRun {
    /// Exit status, or 128 + signal when a signal ended it.
    var status: Int32
    /// "exit status N" or "killed by signal N".
    var statusText: String
    /// The last 600 bytes of stderr, trimmed.
    var stderr: String
    var timedOut: Bool
    /// What the command cost, when it ran under a meter (`imglab-measure`).
    var cost: ProcessCost?

    /// Runs `command` through `/bin/sh -c` in its own process group, stdin from /dev/null,
    /// stdout and stderr into `folder`; with `meter` (the path of `imglab-measure`), through the
    /// meter, which reports the command's own peak memory and CPU time (``ProcessCost``).
    static func run(_ command: String, folder: String, timeout: Double, meter: String? = nil) throws(ResizerError) -> ProcessRun {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        let errPath = folder + "/stderr.txt"
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, folder + "/stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let costFile = folder + "/cost.txt"
        let args = (meter.map { [$0, costFile] } ?? []) + ["/bin/sh", "-c", command]
        var cArgs: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) }
        cArgs.append(nil)
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, args[0], &actions, &attributes, cArgs, environ)
        guard spawned == 0 else { throw .failed("cannot start \(args[0]): \(String(cString: strerror(spawned)))") }

        let started = Date()
        let deadline = started.addingTimeInterval(timeout)
        var status: Int32 = 0
        var timedOut = false
        var pause: UInt32 = 500
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { break }
            if Date() >= deadline {
                timedOut = true
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        let signal = status & 0x7f
        let code: Int32 = signal == 0 ? (status >> 8) & 0xff : 128 + signal
        let text = signal == 0 ? "exit status \(code)" : "killed by signal \(signal)"
        var tail = ""
        if let data = FileManager.default.contents(atPath: errPath) {
            let bytes = [UInt8](data.suffix(600))
            tail = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let wall = Date().timeIntervalSince(started)
        let cost = meter == nil || timedOut ? nil : FileManager.default.contents(atPath: costFile).flatMap {
            ProcessCost(meterLine: String(decoding: $0, as: UTF8.self), wallSeconds: wall)
        }
        return ProcessRun(status: code, statusText: text, stderr: tail, timedOut: timedOut, cost: cost)
    }
}
