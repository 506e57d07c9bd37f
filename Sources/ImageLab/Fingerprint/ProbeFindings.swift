import ImageCore
import ImageCodecs
import ImageCorpus

/// The findings of the calibration images that are not a resampling fit: alpha, orientation,
/// 16-bit samples and size rounding.
enum ProbeFindings {
    typealias Finding = ContractFingerprint.Finding

    static func codes(_ v: Double) -> String { ResamplingFindings.codes(v) }

    /// Premultiplied, straight (the halo), or dropped: the alpha probe's output against the fitted
    /// design rendered with and without premultiplication.
    static func alpha(_ output: Image?, design: DesignFit.Candidate, swapped: Bool) -> Finding {
        let probe = CalibrationImages.alpha
        guard let output, let read = DesignFit.Pixels(output) else {
            return Finding(aspect: "alpha", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the alpha image's output could not be read")
        }
        let actual = swapped ? read.swappingRedAndBlue : read
        // A corner lies under α = 0 in the source: an output opaque there dropped alpha.
        if !output.format.hasAlpha || actual.values[3] > 0.5 {
            let g = actual.values[1]
            return Finding(aspect: "alpha", value: g > 0.5 ? "dropped: the colour hidden under α = 0 shows" : "dropped: flattened",
                           kind: .defect, confidence: 1,
                           evidence: "the top-left output pixel, transparent in the source, has α = \(codes(actual.values[3] * 255))")
        }
        var straight = design
        straight.design.premultiplied = false
        let distances = [design, straight].map { d in
            DesignFit.render(probe.source, probe.operation, d).flatMap { DesignFit.distance(actual, DesignFit.Pixels($0))?.mean }
                ?? .infinity
        }
        let premultiplied = distances[0] <= distances[1]
        return Finding(aspect: "alpha", value: premultiplied ? "premultiplied while resampling" : "straight colour averaged (halo)",
                       kind: premultiplied ? .correct : .defect,
                       confidence: ResamplingFindings.confidence(distances.min() ?? 0, distances.max()),
                       evidence: "\(codes(distances[0])) codes from the premultiplied design, \(codes(distances[1])) from straight averaging")
    }

    /// Every frame kept, the first one only (a design: the run compares frame 0 and says so), or
    /// the animation not read.
    static func animation(_ output: Image?) -> Finding {
        guard let output else {
            return Finding(aspect: "animation", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the two-frame animation's output could not be read")
        }
        let frames = output.animation?.frames.count ?? 1
        let evidence = "a two-frame APNG (red, then blue): \(frames) frame\(frames == 1 ? "" : "s") written"
        if frames == 2 { return Finding(aspect: "animation", value: "every frame resized", kind: .correct, confidence: 1, evidence: evidence) }
        if frames == 1 { return Finding(aspect: "animation", value: "first frame only", kind: .design, confidence: 1, evidence: evidence) }
        return Finding(aspect: "animation", value: "\(frames) frames from 2", kind: .defect, confidence: 1, evidence: evidence)
    }

    /// Clamped, or wrapping around: the shrink's and the enlargement's outputs against the fitted
    /// design, counting the samples more than half the range away from a design value near either
    /// end (a negative-lobe kernel's overshoot kept modulo 2⁸ turns white next to an edge black).
    static func valueRange(_ outputs: [(CalibrationImages.Probe, Image?)], best: DesignFit.Candidate, swapped: Bool) -> Finding {
        var wrapped = 0, compared = 0
        for (probe, output) in outputs {
            guard let output, let read = DesignFit.Pixels(output), let oracle = DesignFit.render(probe.source, probe.operation, best)
            else { continue }
            let actual = swapped ? read.swappingRedAndBlue : read, expected = DesignFit.Pixels(oracle)
            guard actual.width == expected.width, actual.height == expected.height else { continue }
            for i in stride(from: 0, to: actual.values.count, by: 4) where actual.values[i + 3] > 0.999 && expected.values[i + 3] > 0.999 {
                for c in 0..<3 {
                    let a = actual.values[i + c], e = expected.values[i + c]
                    compared += 1
                    if abs(a - e) > 0.5 && (e > 0.8 || e < 0.2) { wrapped += 1 }
                }
            }
        }
        guard compared > 0 else {
            return Finding(aspect: "value range", value: "not found out", kind: .unknown, confidence: 0, evidence: "no output to compare")
        }
        let evidence = "\(wrapped) of \(compared) opaque samples of the shrink and the enlargement more than half the range from a design "
            + "value near black or white"
        return wrapped > 0
            ? Finding(aspect: "value range", value: "overshoot wraps around (white next to an edge turns black, black turns white)",
                      kind: .defect, confidence: 1, evidence: evidence)
            : Finding(aspect: "value range", value: "clamped", kind: .correct, confidence: 1, evidence: evidence)
    }

    /// Whether the resizer answered every calibration call: calls it declines (an operation its
    /// template does not offer) are its design; calls it fails on (an error, a crash, a timeout,
    /// no or undecodable output) are defects, named one by one in the evidence.
    static func calls(_ total: Int, failures: [String], declined: Int) -> Finding {
        let evidence = failures.isEmpty ? "\(total) calibration calls, each answered" : failures.joined(separator: "; ")
        if failures.isEmpty { return Finding(aspect: "calls", value: "every call answered", kind: .correct, confidence: 1, evidence: evidence) }
        if declined == failures.count {
            return Finding(aspect: "calls", value: "declines \(declined) of \(total) (an operation it does not offer)", kind: .design,
                           confidence: 1, evidence: evidence)
        }
        return Finding(aspect: "calls", value: "fails on \(failures.count - declined) of \(total) calibration images", kind: .defect,
                       confidence: 1, evidence: evidence)
    }

    /// The orientation finding of each container's file (the EXIF of a JPEG, the eXIf chunk of a
    /// PNG): one finding when they agree, else each container's own, the worst kind first (a
    /// resizer may honour EXIF in JPEG and not in PNG).
    static func orientation(byContainer outputs: [(ContainerFormat, Image?)], swapped: Bool) -> Finding {
        let each = outputs.map { ($0.0 == .jpeg ? "JPEG (EXIF)" : "PNG (eXIf)", orientation($0.1, swapped: swapped)) }
        let known = each.filter { $0.1.kind != .unknown }
        guard let first = known.first ?? each.first else {
            return Finding(aspect: "orientation", value: "not found out", kind: .unknown, confidence: 0, evidence: "no oriented image")
        }
        if known.allSatisfy({ $0.1.value == first.1.value }) {
            var finding = first.1
            finding.evidence = known.map(\.0).joined(separator: " and ") + ": " + finding.evidence
            return finding
        }
        let worst = known.first { $0.1.kind == .defect } ?? first
        return Finding(aspect: "orientation", value: known.map { "\($0.1.value) in \($0.0)" }.joined(separator: "; "), kind: worst.1.kind,
                       confidence: known.map(\.1.confidence).min() ?? 0,
                       evidence: known.map { "\($0.0): \($0.1.evidence)" }.joined(separator: "; "))
    }

    /// The tag-6 finding, made a defect when the tag is applied but another one is not: each of the
    /// other tags' outputs is matched against the stored picture drawn by each of the eight
    /// transforms (squeezed into the displayed size), and the nearest names what was drawn.
    static func everyTag(_ tagSix: Finding, _ outputs: [(CalibrationImages.Probe, Image?)], swapped: Bool) -> Finding {
        guard tagSix.kind == .correct else { return tagSix }
        var wrong: [String] = []
        var drawn: [String] = []
        for (probe, output) in outputs {
            guard let output, let read = DesignFit.Pixels(output) else { continue }
            let actual = swapped ? read.swappingRedAndBlue : read
            let tag = probe.source.orientation
            let display = probe.source.displaySize
            let call = probe.operation == .orient ? "orient" : "resize"
            guard actual.width == display.width && actual.height == display.height else {
                let size = "\(actual.width)×\(actual.height) returned, not the displayed \(display.width)×\(display.height)"
                drawn.append("tag \(tag.exifValue) (\(call)): \(size)")
                wrong.append("tag \(tag.exifValue) sized wrong (\(call): \(size))")
                continue
            }
            let scores = Orientation.allCases.compactMap { o -> (Orientation, Double)? in
                let picture = Image(bitmap: probe.source.bitmap, orientation: o).oriented().bitmap
                guard let pixels = DesignFit.Pixels(stretched(picture, width: display.width, height: display.height)),
                      let d = DesignFit.distance(actual, pixels) else { return nil }
                return (o, d.mean)
            }
            guard let best = scores.min(by: { $0.1 < $1.1 }) else { continue }
            drawn.append("tag \(tag.exifValue) (\(call)): \(best.0 == tag ? "applied" : "drawn as tag \(best.0.exifValue)")")
            if best.0 != tag { wrong.append("tag \(tag.exifValue) drawn as tag \(best.0.exifValue) (\(call))") }
        }
        guard !wrong.isEmpty else {
            var finding = tagSix
            if drawn.count == outputs.count { finding.evidence = "every tag 2–8 applied (resized, and through orient for 5–8); " + finding.evidence }
            return finding
        }
        return Finding(aspect: "orientation", value: "wrong for some tags: " + wrong.joined(separator: ", "), kind: .defect,
                       confidence: 1, evidence: drawn.joined(separator: "; ") + "; " + tagSix.evidence)
    }

    /// The orientation finding of a resizer whose config declares it is fed upright pixels
    /// (`appliesOrientation: false`): not its job, a declared design; the probe's result kept as evidence.
    static func fedUpright(_ probed: Finding) -> Finding {
        Finding(aspect: "orientation", value: "fed upright pixels (declared: appliesOrientation false)", kind: .design, confidence: 1,
                evidence: "given the oriented file itself: \(probed.value); \(probed.evidence)")
    }

    /// Applied, ignored or applied twice: the output of the image stored sideways against each.
    static func orientation(_ output: Image?, swapped: Bool) -> Finding {
        let probe = CalibrationImages.oriented
        guard let output, let read = DesignFit.Pixels(output) else {
            return Finding(aspect: "orientation", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the oriented image's output could not be read")
        }
        let actual = swapped ? read.swappingRedAndBlue : read
        let stored = Image(bitmap: probe.source.bitmap)
        let applied = probe.source.oriented()
        // A resizer that turns the picture the wrong way still sizes it to the box: squeezed.
        let twice = stretched(Image(bitmap: applied.bitmap, orientation: probe.source.orientation).oriented().bitmap,
                              width: applied.width, height: applied.height)
        let ignored = stretched(stored.bitmap, width: applied.width, height: applied.height)
        var scores: [(String, Finding.Kind, Double)] = []
        for (words, kind, image) in [("applied", Finding.Kind.correct, applied), ("applied twice (and squeezed)", .defect, twice),
                                     ("ignored (the stored pixels squeezed into the displayed size)", .defect, ignored)] {
            if let pixels = DesignFit.Pixels(image), let d = DesignFit.distance(actual, pixels) { scores.append((words, kind, d.mean)) }
        }
        if actual.width == stored.width && actual.height == stored.height && actual.width != applied.width {
            return Finding(aspect: "orientation", value: "ignored (the stored size returned)", kind: .defect, confidence: 1,
                           evidence: "EXIF orientation 6 (display 8×12): the output is \(actual.width)×\(actual.height)")
        }
        guard let best = scores.min(by: { $0.2 < $1.2 }) else {
            return Finding(aspect: "orientation", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the output is \(actual.width)×\(actual.height), not the displayed 8×12")
        }
        let next = scores.filter { $0.0 != best.0 }.map(\.2).min()
        return Finding(aspect: "orientation", value: best.0, kind: best.1, confidence: ResamplingFindings.confidence(best.2, next),
                       evidence: "EXIF orientation 6: " + scores.map { "\($0.0) \(codes($0.2)) codes" }.joined(separator: ", "))
    }

    /// `bitmap` resampled to `width × height` by the pixel under each output centre.
    static func stretched(_ bitmap: Bitmap, width: Int, height: Int) -> Image {
        let bpp = bitmap.format.bitsPerPixel / 8
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let sx = (2 * x + 1) * bitmap.width / (2 * width), sy = (2 * y + 1) * bitmap.height / (2 * height)
                let o = sy * bitmap.bytesPerRow + sx * bpp
                bytes += bitmap.bytes[o..<(o + bpp)]
            }
        }
        return Image(bitmap: Bitmap(uncheckedWidth: width, height: height, format: bitmap.format, bytesPerRow: width * bpp,
                                    bytes: bytes))
    }

    /// The worst of the 16-bit findings of each operation's output (a resize to the same size,
    /// an orientation), naming the operation that lost the bits.
    static func deepSamples(_ outputs: [(operation: LabOperation, output: Image?)], swapped: Bool) -> Finding {
        let findings = outputs.filter { $0.output != nil }.map { o in
            var f = deepSamples(o.output, swapped: swapped)
            f.evidence = "\(o.operation.name): " + f.evidence
            return f
        }
        let rank: [Finding.Kind: Int] = [.defect: 0, .unknown: 1, .design: 2, .correct: 3]
        return findings.min { rank[$0.kind] ?? 9 < rank[$1.kind] ?? 9 }
            ?? deepSamples(nil, swapped: swapped)
    }

    /// Kept, rounded to 8 bits, or lost: the 16-bit ramp through an operation that keeps its
    /// size, against the ramp itself. Judged by the bits, not the values, so a resampling defect
    /// found elsewhere (a shift) does not read as lost bits: 16-bit samples whose low bytes all
    /// repeat the high ones are an 8-bit intermediate; an output far from the ramp lost it.
    static func deepSamples(_ output: Image?, swapped: Bool) -> Finding {
        let source = CalibrationImages.deep.source
        guard let output, let read = DesignFit.Pixels(output), let expected = DesignFit.Pixels(source) else {
            return Finding(aspect: "16-bit samples", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the 16-bit image's output could not be read")
        }
        let actual = swapped ? read.swappingRedAndBlue : read
        guard actual.width == expected.width, actual.height == expected.height else {
            return Finding(aspect: "16-bit samples", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the 16-bit image's output is \(actual.width)×\(actual.height), not 16×16")
        }
        var total = 0.0, worst = 0.0, eightBit = true, n = 0
        for i in actual.values.indices where i % 4 != 3 {
            let d = abs(actual.values[i] - expected.values[i]) * 65535
            total += d
            worst = max(worst, d)
            n += 1
            if Int((actual.values[i] * 65535).rounded()) % 257 != 0 { eightBit = false }
        }
        let mean = total / Double(max(1, n)), bits = output.format.bitsPerComponent
        let evidence = "\(bits)-bit output; difference from the ramp: mean \(String(format: "%.0f", mean)), largest "
            + "\(String(format: "%.0f", worst)) in 16-bit units"
        func finding(_ value: String, _ kind: Finding.Kind) -> Finding {
            Finding(aspect: "16-bit samples", value: value, kind: kind, confidence: 1, evidence: evidence)
        }
        if mean > 8000 { return finding("the picture is lost", .defect) }
        if bits < 16 { return finding("lost: 8-bit output", .defect) }
        if eightBit { return finding("an 8-bit intermediate (256 levels in 16 bits)", .defect) }
        return finding("kept", .correct)
    }

    /// Half up, to even, down, up, or none of them: the free sides of the three aspect fits.
    static func sizeRounding(_ outputs: [Image?]) -> (finding: Finding, rule: SizeRounding?) {
        let sides = outputs.map { $0.map { $0.displaySize.height } }
        let exact = CalibrationImages.aspect.map(\.exact)
        let seen = zip(exact, sides).map { e, s in "\(String(format: "%.1f", e)) → \(s.map(String.init) ?? "none")" }
            .joined(separator: ", ")
        let evidence = "aspect fits into 9×9 with a free side of " + seen
        guard sides.allSatisfy({ $0 != nil }) else {
            return (Finding(aspect: "size rounding", value: "not found out", kind: .unknown, confidence: 0, evidence: evidence), nil)
        }
        if sides.allSatisfy({ $0 == 9 }) {
            return (Finding(aspect: "size rounding", value: "none: every fit filled the 9×9 box (the content mode is not "
                            + "honoured)", kind: .defect, confidence: 1, evidence: evidence), nil)
        }
        for rule in SizeRounding.allCases {
            let predicted = CalibrationImages.aspect.map { probe in
                rule.aspectFit(width: probe.source.width, height: probe.source.height, boxWidth: 9, boxHeight: 9).height
            }
            if predicted == sides.compactMap({ $0 }) {
                let words = ["builtin": "half up", "floor": "down", "round": "to the nearest, ties to even", "ceil": "up"][rule.rawValue]
                return (Finding(aspect: "size rounding", value: words ?? rule.rawValue, kind: rule == .builtin ? .correct : .design,
                                confidence: 1, evidence: evidence), rule)
            }
        }
        return (Finding(aspect: "size rounding", value: "none of half up, to even, down or up", kind: .defect, confidence: 1,
                        evidence: evidence), nil)
    }
}
