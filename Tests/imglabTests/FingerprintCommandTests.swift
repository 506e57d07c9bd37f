import Foundation
import Testing
@testable import ImageLab

/// `imglab fingerprint` as a user runs it: the table, the JSON, a config written for a command
/// resizer that loads back with the inferred contract, and a resizer that fails every image.
@Suite("Fingerprint command")
struct FingerprintCommandTests {
    static func folder() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-fp-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("--json - prints the fingerprint (schema imglab-fingerprint/1) of a mutant: its sRGB averaging is a design finding")
    func json() throws {
        let run = try ImglabRun.run(["fingerprint", "--resizer", "mutant:srgb-averaging", "--json", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "imglab-fingerprint/1")
        let fingerprint = try #require(object["fingerprint"] as? [String: Any])
        let findings = try #require(fingerprint["findings"] as? [[String: Any]])
        let light = try #require(findings.first { $0["aspect"] as? String == "light space" })
        #expect(light["kind"] as? String == "design" && (light["value"] as? String)?.hasPrefix("sRGB") == true)
        #expect((fingerprint["inferredPolicy"] as? [String: Any])?["lightSpace"] as? String == "srgb")
    }

    @Test("--write-config for a cmd: resizer writes a config that loads back with the inferred kernel and light space")
    func writeConfig() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/mine.json"
        let template = "cmd:\(ImglabRun.executable) resize {in} -o {out} --size {width}x{height} --mode {mode} --srgb"
        let run = try ImglabRun.run(["fingerprint", "--resizer", template, "--write-config", config])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("light space") && run.stdout.contains("sRGB-encoded values"), "\(run.stdout)")
        let adapter = try ResizerChoice.adapter("config:" + config)
        #expect(adapter.policy.lightSpace == .srgb && adapter.policy.kernel == .lanczos3, "\(adapter.policy)")
    }

    @Test("a resizer that fails every calibration image exits 1, says which failed, and leaves no temporary folder")
    func failingResizer() throws {
        // Its own temporary folder (TMPDIR), so tests running beside it cannot leave folders there.
        let tmp = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        let run = try ImglabRun.run(["fingerprint", "--resizer", "cmd:false {in} {out}"], environment: ["TMPDIR": tmp])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("calibration images the resizer failed on") && run.stdout.contains("shrink: failed"))
        #expect(run.stdout.contains("contract: not inferred"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "left behind in TMPDIR")
    }

    @Test("--write-config of a config: resizer keeps what the config says (programs, operations, orientation feeding, about) and rewrites {dir} so its script is found from the new folder")
    func writeConfigOfConfig() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/adapter", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/reviewed", withIntermediateDirectories: true)
        try Data("exec \"$@\"\n".utf8).write(to: URL(fileURLWithPath: dir + "/adapter/pass.sh"))
        let original: [String: Any] = [
            "name": "wrapped", "about": "imglab behind a shell script.",
            "programs": ["imglab": [ImglabRun.executable]],
            "templates": ["resize": "sh {dir}/pass.sh {imglab} resize {in} -o {out} --size {width}x{height} --mode {mode} --srgb"],
            "policy": ["appliesOrientation": false, "containers": ["png", "jpeg"]],
        ]
        try JSONSerialization.data(withJSONObject: original).write(to: URL(fileURLWithPath: dir + "/adapter/wrapped.json"))
        let written = dir + "/reviewed/wrapped.json"
        let run = try ImglabRun.run(["fingerprint", "--resizer", "config:\(dir)/adapter/wrapped.json", "--write-config", written])
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let config = try JSONDecoder().decode(ResizerConfig.self, from: Data(contentsOf: URL(fileURLWithPath: written)))
        #expect(config.programs == ["imglab": [ImglabRun.executable]])
        #expect(config.templates?["resize"]?.hasPrefix("sh {dir}/../adapter/pass.sh {imglab} resize") == true, "\(config.templates ?? [:])")
        #expect(config.template == nil)
        #expect(config.policy?.appliesOrientation == false && config.policy?.containers == ["png", "jpeg"])
        #expect(config.policy?.lightSpace == .srgb && config.policy?.kernel == "lanczos3")
        #expect(config.about?.hasPrefix("imglab behind a shell script. Contract inferred by 'imglab fingerprint'") == true)
        // The reviewed config runs from its own folder: a run through it passes a resize pair.
        let judged = try ImglabRun.run(["run", "--resizer", "config:" + written, "--filter", "png-rgb8-colorPatches-48x32/resize-aspectFit-24x24",
                                        "--report", "none"])
        #expect(judged.status == 0, "\(judged.stdout) \(judged.stderr)")
        #expect(judged.stdout.contains("1 pass"), "\(judged.stdout)")
    }

    @Test("--write-config of the built-in resizer is a usage error: it needs no config")
    func writeConfigOfBuiltin() throws {
        let run = try ImglabRun.run(["fingerprint", "--write-config", "/tmp/never-written-\(UUID().uuidString).json"])
        #expect(run.status == 2 && run.stderr.contains("--write-config writes the config of a cmd: or config: resizer"), "\(run.stderr)")
    }
}
