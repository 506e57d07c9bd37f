import ImageCorpus
import ImageCore

extension Mutant {
    /// EXIF orientation ignored: the stored pixels are resized as if they were upright.
    static let orientationIgnored = Mutant(
        id: "orientation-ignored", topic: "orientation",
        title: "EXIF orientation ignored (camera photos sideways or upside down)",
        history: "Phones store the sensor's pixels and an EXIF orientation (D5); a resizer that reads only the pixels delivers thumbnails rotated or mirrored (B15: sharp#3422, h5ai#467, iipsrv#147). The first of the UIImage+Resize fixes was to apply imageOrientation before drawing.",
        references: ["D5", "B15", "B18"], bugClass: "orientation",
        triggers: { pair in pair.record.orientation != 1 },
        make: { base in
            MutantResizer(name: "orientation-ignored(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var upright = source
                upright.orientation = .up
                return try base.apply(operation, to: upright)
            }
        })

    /// The mirrored orientations mixed up: 2 ↔ 4 and 5 ↔ 7 (each pair differs by a 180° turn).
    static let mirrorMixup = Mutant(
        id: "mirror-mixup", topic: "orientation",
        title: "mirrored orientations mixed up (2 ↔ 4, 5 ↔ 7)",
        history: "Hand-written orientation tables get the mirrored cases wrong more than any other (B16: sharp#288, bun#30032, winrt-api#1427): flip-horizontal confused with flip-vertical and transpose with transverse, so mirrored selfies come out upside down. Rotations 3, 6 and 8 are right, so a test with only rotated photos passes.",
        references: ["D5", "B16"], bugClass: "orientation",
        triggers: { pair in [2, 4, 5, 7].contains(pair.record.orientation) },
        make: { base in
            MutantResizer(name: "mirror-mixup(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var mixed = source
                switch source.orientation {
                case .upMirrored: mixed.orientation = .downMirrored
                case .downMirrored: mixed.orientation = .upMirrored
                case .leftMirrored: mixed.orientation = .rightMirrored
                case .rightMirrored: mixed.orientation = .leftMirrored
                default: break
                }
                return try base.apply(operation, to: mixed)
            }
        })

    /// The orientation fix that draws a transposed image (EXIF 5–8) into a canvas of the stored
    /// width × height instead of the swapped one: the upright picture is squashed into the
    /// wrong aspect ratio.
    static let transposeWithoutSwap = Mutant(
        id: "transpose-no-swap", topic: "orientation",
        title: "transposed orientation (5–8) drawn without swapping width and height (squashed)",
        history: "The widely copied fixOrientation / normalizedImage snippets create the context with CGImageGetWidth × CGImageGetHeight and draw with a 90° transform; for orientations 5–8 the width and height must be swapped and often are not, so portrait photos come out squashed into a landscape canvas or cut off (B15, B17). The bug lives in the orientation step (the orient operation); the mutant's other operations are right.",
        references: ["D5", "B15"], bugClass: "orientation",
        triggers: { pair in pair.record.orientation >= 5 && pair.operationKind == "orient" },
        make: { base in
            MutantResizer(name: "transpose-no-swap(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                let upright = try base.apply(operation, to: source)
                guard operation == .orient, source.orientation.swapsDimensions else { return upright }
                return try base.apply(.resize(width: source.width, height: source.height, mode: .scaleToFill), to: upright)
            }
        })

    /// The orientation applied twice: the pixels are made upright, but the EXIF tag is kept and
    /// honoured again.
    static let orientationTwice = Mutant(
        id: "orientation-twice", topic: "orientation",
        title: "orientation applied twice (rotated pixels that keep their EXIF tag)",
        history: "A pipeline that rotates the pixels and forgets to reset the orientation tag, or a decoder that auto-rotates feeding code that rotates again (B17: Nuke#870, libavif#3075, sharp#4431): the result is turned once more, by the same orientation.",
        references: ["D5", "B17"], bugClass: "orientation",
        triggers: { pair in pair.record.orientation != 1 },
        make: { base in
            MutantResizer(name: "orientation-twice(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var twice = source.oriented()
                twice.orientation = source.orientation
                return try base.apply(operation, to: twice)
            }
        })
}

extension Mutant {
    /// EXIF 5 (transpose) and 7 (transverse) exchanged; every other orientation right.
    static let transposeTransverseSwapped = Mutant(
        id: "transpose-transverse", topic: "orientation",
        title: "orientations 5 and 7 swapped (transpose and transverse exchanged), the other six right",
        history: "Orientations 5 and 7 are a mirror plus a quarter turn, and the order of the two decides which one comes out: Bun.Image applied flop before rotate, which \"yields the anti-transpose for 5 (should be transpose) and vice-versa — the two are effectively swapped\" (bun#30032); Microsoft's PhotoOrientation documentation had Transpose and Transverse the wrong way around (winrt-api#1427); exif-py's usage example mishandled 5 and 7 (exif-py#157). Rotations and plain mirrors are right, so only the rare mirrored-and-turned photos come out upside down (B16).",
        references: ["D5", "B16"], bugClass: "orientation", subtle: true,
        triggers: { pair in [5, 7].contains(pair.record.orientation) },
        make: { base in
            MutantResizer(name: "transpose-transverse(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                var swapped = source
                switch source.orientation {
                case .leftMirrored: swapped.orientation = .rightMirrored
                case .rightMirrored: swapped.orientation = .leftMirrored
                default: break
                }
                return try base.apply(operation, to: swapped)
            }
        })
}
