import ImageCore

extension ScaleProfile {
    /// Supersampling points per axis per output pixel of a scale oracle: 16, what the quick
    /// profile renders an unreduced oracle with. A reduction of 7× or more would ask for 64
    /// (``Oracle/samplesPerAxis(for:)``), but the scale scenes are smooth at these sizes, so the
    /// box mean over an output pixel is reached with far fewer points.
    public static let oracleSamplesPerAxis = 16

    /// The manifest record of a scale case, as a generated corpus would list it (oracle paths
    /// empty: a scale oracle is rendered when the pair is judged, never stored), so the gates
    /// file's families can take its pairs.
    /// - Throws: ``CorpusGenerationError`` when an operation has no geometry on the case.
    public static func record(_ c: CorpusCase) throws(CorpusGenerationError) -> CaseRecord {
        var entries: [OperationEntry] = []
        for op in c.operations {
            let placement = try placement(of: op, on: c)
            entries.append(OperationEntry(id: op.id, operation: op.record, outputWidth: placement.width, outputHeight: placement.height,
                                          samplesPerAxis: oracleSamplesPerAxis, oracle: []))
        }
        return CorpusGenerator.record(c, operations: entries)
    }

    /// Where `op` puts the case's canvas in its output (``OracleGeometry``).
    /// - Throws: ``CorpusGenerationError`` when the operation has no geometry on the case.
    public static func placement(of op: LabOperation, on c: CorpusCase) throws(CorpusGenerationError) -> OraclePlacement {
        do { return try OracleGeometry.placement(of: op, width: c.width, height: c.height) } catch {
            throw CorpusGenerationError(caseID: c.id, reason: "operation \(op.id): \(error)")
        }
    }

    /// The box-filtered oracle of `op` on the case, rendered from the continuous scene at the
    /// output size (``oracleSamplesPerAxis`` points per axis), stored as 16-bit RGBA like a
    /// committed oracle file.
    /// - Throws: ``CorpusGenerationError`` when the operation has no geometry on the case.
    public static func oracle(of op: LabOperation, on c: CorpusCase) throws(CorpusGenerationError) -> Image {
        let placement = try placement(of: op, on: c)
        let rendering = Oracle.render(canvasWidth: c.width, canvasHeight: c.height, placement: placement,
                                      samples: oracleSamplesPerAxis, scene: c.content(frame: 0))
        return Image(bitmap: rendering.bitmap16())
    }
}
