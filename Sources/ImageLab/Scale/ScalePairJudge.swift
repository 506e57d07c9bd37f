import Foundation
import ImageCore
import ImageCodecs
import ImageCorpus
import ImageMetrics

/// Measures and judges one scale pair: the floor and the resizer in child processes, the
/// output against the box oracle by the family's gate, the costs by the cost gate.
struct ScalePairJudge: Sendable {
    var gates: GateBook
    var costGate: GateExpression
    var canaries: [Canaries.Failure]
    var resizer: CommandResizer
    var imglab: String
    /// The path of `imglab-measure`.
    var meter: String
    /// Where the floor's call folders go.
    var folder: String

    /// Judges one pair; its floor is `floors`' record for `index`, measured when there is none yet.
    /// The stages: measure the floor and the resizer (the cost gate), then judge the output
    /// against the box oracle (``FrameJudgement``), then name the cost finding.
    func judge(_ pair: LabPair, scaleCase: CorpusCase, operation: LabOperation, placement: OraclePlacement, source: String, oracle: Image?,
               floors: ScalePlan.FloorBook, index: Int) -> PairResult {
        var result = PairResult(opening: pair, frames: 1)
        do {
            try route(pair, scaleCase: scaleCase, operation: operation, placement: placement, source: source, oracle: oracle, floors: floors,
                      index: index, into: &result)
        } catch {
            result.verdict = .error
            result.message = error.reason
        }
        return result
    }

    private func route(_ pair: LabPair, scaleCase: CorpusCase, operation: LabOperation, placement: OraclePlacement, source: String,
                       oracle: Image?, floors: ScalePlan.FloorBook, index: Int, into result: inout PairResult) throws(PairStageError) {
        let record = pair.record, entry = pair.entry
        guard let oracle else { throw PairStageError(reason: "the oracle cannot be rendered") }
        guard let familyIndex = gates.family(of: pair, oracle: .box) else {
            throw PairStageError(reason: "no family of \(GateBook.fileName) takes this pair")
        }
        let family = gates.file.families[familyIndex].name
        result.family = family

        // Measure the floor and the resizer.
        let scale = ScaleCost.floorScale(container: record.container, width: record.displayWidth, height: record.displayHeight,
                                         operation: operation, placement: placement)
        let floor: ProcessCost
        do {
            floor = try floors.floor(index) { () throws(ResizerError) in
                try measureFloor(source: source, scale: scale, output: (entry.outputWidth, entry.outputHeight))
            }
        } catch { throw PairStageError(reason: "floor: \(error)") }
        let output: Image, cost: ProcessCost
        do {
            (output, cost) = try resizer.measured(operation, file: source, width: record.displayWidth, height: record.displayHeight, meter: meter)
        } catch { throw PairStageError(reason: "\(resizer.name): \(error)") }
        var scaleCost = ScaleCost(resizer: cost, floor: floor, floorScale: scale, gate: nil)
        let costValues = scaleCost.values
        do { scaleCost.gate = try costGate.evaluate { costValues[$0] } } catch { throw PairStageError(reason: "cost: \(error)") }
        result.cost = scaleCost
        result.actualSize = [output.displaySize.width, output.displaySize.height]

        // Compare, gate and diagnose.
        let stage = FrameJudgement(family: family, gate: gates.gates[familyIndex], canaries: canaries, kernelJudged: false)
        let judged = try stage.judge(frames: 1, expected: { _ in (oracle, "oracle", nil) },
                                     actual: { _ in ComparedImage(image: output.oriented(), name: "\(resizer.name) output") },
                                     source: nil, counterfactuals: { _, _, _ in [] }, into: &result)
        result.metrics = judged.worst.merging(costValues) { pixel, _ in pixel }
        guard let judgement = judged.judged?.judgement else { return }
        result.gate = judgement.gate
        if case .differentSizes = judgement.verdict { return }
        let costPassed = scaleCost.gate?.passed ?? false
        if judgement.passed && costPassed {
            result.verdict = .pass
            return
        }
        result.verdict = .fail
        var reasons: [String] = []
        if !judgement.passed {
            reasons += judgement.failedClauses
            result.diagnosis = .init(judgement.comparison.diagnosis)
        }
        if !costPassed {
            reasons += (scaleCost.gate?.failedClauses ?? []).map { "cost: " + $0 }
            var fullDecode: ProcessCost?, fixedCost: ProcessCost?
            if scaleCost.gate?.failedClauses.contains(where: { $0.hasPrefix("cost.cpu") }) == true {
                // A JPEG read at 1/d whose CPU is over: is it what decoding the whole JPEG costs?
                if scale > 1 { fullDecode = try? measureFloor(source: source, scale: 1, output: (entry.outputWidth, entry.outputHeight)) }
                // And how much of it does the call cost with nothing to shrink (a program's start)?
                fixedCost = try? measureFixedCost(scaleCase: scaleCase, operation: operation, output: (entry.outputWidth, entry.outputHeight))
            }
            // Memory and CPU speak louder than a pixel finding: a wasteful resizer's pixels are right.
            if let finding = CostDiagnosis.finding(scaleCost, sourcePixels: record.displayWidth * record.displayHeight,
                                                   decodedBytesPerPixel: Double(scaleCase.encoding.delivered.bitsPerPixel) / 8,
                                                   fullDecode: fullDecode, fixedCost: fixedCost) {
                result.diagnosis = finding
            }
        }
        result.message = reasons.joined(separator: "; ")
    }

    /// The resizer's cost for the same operation on the same kind of source made about the
    /// output's size (``CostDiagnosis/fixedCostSource(of:output:)``): what the call costs with
    /// nothing to shrink — a program's start, a library's import, writing the output.
    private func measureFixedCost(scaleCase: CorpusCase, operation: LabOperation,
                                  output: (width: Int, height: Int)) throws(ResizerError) -> ProcessCost {
        let small = CostDiagnosis.fixedCostSource(of: scaleCase, output: output)
        return try inCallFolder("fixed") { call throws(ResizerError) in
            let file = call + "/" + URL(fileURLWithPath: small.sourcePath).lastPathComponent
            do { try StreamedSource.write(small, samplesPerAxis: ScaleProfile.sourceSamplesPerAxis, toFile: file) } catch {
                throw .failed("cannot make a source of the output's size: \(error)")
            }
            return try resizer.measured(operation, file: file, width: small.width, height: small.height, meter: meter).cost
        }
    }

    /// Runs `body` with a new folder under ``folder`` (`PREFIX-UUID`), removed afterwards.
    private func inCallFolder<T>(_ prefix: String, _ body: (String) throws(ResizerError) -> T) throws(ResizerError) -> T {
        let call = folder + "/\(prefix)-\(UUID().uuidString)"
        do { try FileManager.default.createDirectory(atPath: call, withIntermediateDirectories: true) } catch {
            throw .failed("cannot make \(call): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: call) }
        return try body(call)
    }

    /// Runs `imglab decode SOURCE --dct-scale 1/scale --average-to WxH` (the output's size) in a
    /// child process and returns its cost.
    private func measureFloor(source: String, scale: Int, output: (width: Int, height: Int)) throws(ResizerError) -> ProcessCost {
        let command = [imglab, "decode", source, "--dct-scale", "1/\(scale)", "--average-to", "\(output.width)x\(output.height)"]
            .map(CommandTemplate.quoted).joined(separator: " ")
        return try inCallFolder("floor") { call throws(ResizerError) in
            let run = try ProcessRun.run(command, folder: call, timeout: 300, meter: meter)
            guard !run.timedOut else { throw .failed("timed out: \(command)") }
            guard run.status == 0 else { throw .failed("\(run.statusText): \(command); \(run.stderr)") }
            guard let cost = run.cost else { throw .failed("\(meter) reported no cost for \(command)") }
            return cost
        }
    }
}
