/// Candidates for bugs that change the output's size or scale every value: a picture stretched
/// onto a canvas one pixel too large (size rounded up), a transposed picture drawn into a
/// canvas whose width and height were not swapped, and n-bit samples widened to 8 bits by a
/// shift. Each is a transform of the expected image, like every candidate.
enum GeometryCandidates {
    static let all: [Candidate] = [sizeOvershoot, transposedCanvas] + shiftWidening

    /// The expected image stretched (bilinear, premultiplied) onto an `aw × ah` canvas: actual
    /// pixel centre `(x + ½)` maps to expected coordinate `(x + ½) · ew / aw − ½`.
    static func stretched(_ e: ExpectedView, _ x: Int, _ y: Int, toWidth aw: Int, height ah: Int) -> SIMD4<Double> {
        let fx = (Double(x) + 0.5) * Double(e.width) / Double(aw) - 0.5
        let fy = (Double(y) + 0.5) * Double(e.height) / Double(ah) - 0.5
        return e.bilinear(fx, fy)
    }

    /// One pixel too large on each side, the picture stretched to fill it.
    static let sizeOvershoot = Candidate(
        id: "size.overshoot", bugClass: "size-rounding",
        name: "one pixel too large on each side: the size rounded up after a floating-point overshoot (ceil of 100.00000000000001), the picture stretched onto it",
        references: ["B22"], size: { ($0 + 1, $1 + 1) }) { e, x, y in
        stretched(e, x, y, toWidth: e.width + 1, height: e.height + 1)
    }

    /// Width and height exchanged, the upright picture squashed into the transposed canvas.
    static let transposedCanvas = Candidate(
        id: "orientation.transposed-canvas", bugClass: "orientation",
        name: "transposed orientation (EXIF 5–8) drawn into a canvas whose width and height were not swapped: the upright picture squashed into the wrong aspect ratio",
        references: ["D5", "B15"], size: { ($1, $0) }) { e, x, y in
        stretched(e, x, y, toWidth: e.height, height: e.width)
    }

    /// `n`-bit samples (1, 2, 4 and 5 bits) widened to 8 bits by `v << (8 − n)` without
    /// replicating the high bits: full scale becomes `256 − 2⁸⁻ⁿ`, so every encoded colour value
    /// is multiplied by `(256 − 2⁸⁻ⁿ) / 255` (alpha is not touched, so borders and rounded
    /// corners added afterwards keep their transparency).
    static let shiftWidening: [Candidate] = [1, 2, 4, 5].map { n in
        let gain = Double(256 - (1 << (8 - n))) / 255
        return Candidate(id: "depth.shift-\(n)-bit", bugClass: "bit-depth",
                         name: "\(n)-bit samples widened to 8 bits by a shift without bit replication: every value × \(256 - (1 << (8 - n)))/255 (white becomes \(256 - (1 << (8 - n))))",
                         references: ["D4", "B8"]) { (n: Neighbourhood) in
            let v = n.centre
            return SIMD4(v.x * gain, v.y * gain, v.z * gain, v.w)
        }
    }
}
