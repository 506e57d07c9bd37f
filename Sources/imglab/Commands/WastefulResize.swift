import CommandLineOptions
import ImageLab
import ImageResize

/// `--performance-mutant ID` of `imglab resize` and `imglab thumbnail`: the lab's deliberately
/// wasteful variants (the same pixels at the wrong cost), which `imglab selftest --profile scale`
/// runs as children. The only place the two commands reach the lab; without the option they
/// write through ImageResize alone.
enum WastefulResize {
    static let option = Option<PerformanceMutant?>.choice("--performance-mutant", "ID",
        "a deliberately wasteful variant, for 'imglab selftest --profile scale': the same pixels at the wrong cost; "
            + PerformanceMutant.allCases.map { "\($0.id): \($0.title)" }.joined(separator: "; "),
        PerformanceMutant.allCases.map { ($0.id, $0) })

    /// Writes `request`, through the mutant the option names when it is given; a request a
    /// mutant cannot run is a usage error.
    static func write(_ request: FileResizeRequest, _ args: Arguments,
        command: String) throws(UsageError) -> ExitStatus {
        let mutant = try args.value(option)
        if let mutant, let problem = PerformanceMutant.problem(with: request) {
            throw UsageError("--performance-mutant \(mutant.id): \(problem)")
        }
        do {
            if let mutant { try mutant.run(request) } else { try request.write() }
        } catch {
            printError("imglab \(command): \(error)")
            return .failure
        }
        return .ok
    }
}
