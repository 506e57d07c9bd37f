import Foundation

extension LabRunner.Progress {
    /// What `imglab run` writes for this judged pair: a line for every pair that does not pass,
    /// with its diagnosis, message and policy labels; between them, on a terminal, a progress bar
    /// redrawn in place, elsewhere a count every 25 pairs (and at the end); otherwise nothing.
    public func terminalLine(onTerminal terminal: Bool) -> String {
        let verdict = result.verdict.rawValue.uppercased()
        if result.verdict != .pass {
            let why = [result.diagnosis.flatMap { $0.bugClass.map { "diagnosis \($0)" } }, result.message,
                       result.policy?.map(\.text).joined(separator: "; ")].compactMap { $0 }.joined(separator: ": ")
            return (terminal ? "\r\u{1B}[K" : "") + "[\(done)/\(total)] \(verdict.padding(toLength: max(5, verdict.count), withPad: " ", startingAt: 0)) \(result.pair)" + (why.isEmpty ? "" : " — " + why) + "\n"
        }
        if terminal {
            let filled = total > 0 ? done * 30 / total : 30
            return "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] \(done)/\(total) " + result.pair
        }
        return done % 25 == 0 || done == total ? "[\(done)/\(total)] judged\n" : ""
    }
}
