import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `imglab accept` from the command line: killed (SIGKILL, by the command's own fault point
/// `IMGLAB_FAULT_AFTER_WRITES=N`, right after the N-th baseline file written or removed) every
/// baseline file is whole, old or new, and the next run finishes the acceptance; usage errors
/// change nothing.
@Suite("accept command")
struct AcceptCommandTests {
    /// Distinct file contents (the command copies bytes; it need not decode them beyond sniffing:
    /// a PNG signature and a few bytes make a file a folder diff pairs).
    static func file(_ tag: String) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(tag.utf8)
    }

    static let old = ["a.png": file("old a"), "b.png": file("old b"), "sub/c.png": file("old c")]
    static let new = ["a.png": file("new a"), "b.png": file("new b"), "sub/c.png": file("new c")]

    /// baseline/ and actual/ under a new folder, with ``old`` and ``new``.
    static func folders() throws -> String {
        let root = try ScratchFolder.new("imglab-accept-cli").path
        for (side, files) in [("baseline", old), ("actual", new)] {
            for (name, data) in files {
                let url = URL(fileURLWithPath: root + "/" + side + "/" + name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
        return root
    }

    static func baseline(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in old.keys { files[name] = FileManager.default.contents(atPath: root + "/baseline/" + name) }
        return files
    }

    @Test("killed after each baseline file written, every file is old or new (never missing, never a mix), exactly that many are new; the next run finishes the entry")
    func killedAcceptance() throws {
        for k in 1...3 {
            let root = try Self.folders()
            let killed = try ImglabRun.run(["accept", "baseline", "actual", "*.png"], environment: ["IMGLAB_FAULT_AFTER_WRITES": "\(k)"],
                                           in: root)
            #expect(killed.status == 128 + SIGKILL, "fault point \(k): exit status \(killed.status), \(killed.stderr)")
            let state = Self.baseline(root)
            for (name, data) in state { #expect(data == Self.old[name] || data == Self.new[name], "killed after \(k): \(name) is neither") }
            #expect(state.count == 3 && state.count { Self.new[$0.key] == $0.value } == k, "killed after \(k): \(state.count) files")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root + "/baseline").filter { $0.contains(".imglab-") && $0 != ".imglab-history" }
            #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
            // The next acceptance (here of nothing new) finishes the interrupted entry first.
            let next = try ImglabRun.run(["accept", "baseline", "actual", "a.png"], in: root)
            #expect(next.status == 0 && next.stdout.contains("finished entry 0001"), "\(next.status): \(next.stdout) \(next.stderr)")
            #expect(Self.baseline(root) == Self.new, "after the next run, the baseline is not the accepted one")
            let undo = try ImglabRun.run(["accept", "baseline", "--undo", "last"], in: root)
            #expect(undo.status == 0 && Self.baseline(root) == Self.old, "undo after recovery: \(undo.stderr)")
        }
    }

    @Test("usage errors exit 2 and change nothing: too few arguments, --undo with folders, --from with folders, a name that matches nothing")
    func usageErrors() throws {
        let root = try Self.folders()
        for args in [["accept", "baseline", "actual"], ["accept", "baseline", "actual", "--undo", "last"],
                     ["accept", "baseline", "--from", "r.json"], ["accept", "baseline", "actual", "nothing.png"],
                     ["accept", "baseline", "--undo", "last"]] {
            let run = try ImglabRun.run(args, in: root)
            #expect(run.status == 2 && !run.stderr.isEmpty, "\(args): \(run.status) \(run.stderr)")
        }
        #expect(Self.baseline(root) == Self.old)
    }
}
