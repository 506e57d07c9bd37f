import ImageCore

/// The EXIF block, orientation and ICC profile of a JPEG, from its APP1 and APP2 segments.
///
/// - EXIF: the first APP1 whose payload starts with `Exif\0\0` (CIPA DC-008 §4.7.2); the block
///   after the prefix is kept verbatim. A block whose TIFF structure is broken
///   (``EXIF/defect(in:)``) is dropped with a warning: orientation `.up`.
/// - ICC: APP2 segments `ICC_PROFILE\0`, sequence number (1-based), count, then a chunk
///   (ICC.1:2010 Annex B.4); chunks are joined in sequence order whatever their file order.
///   A chunk repeated byte for byte is read once (noted in `jpeg.icc`). An inconsistent set
///   (a missing number, a number repeated with other bytes, counts that disagree) is dropped
///   with a warning, as browsers ignore such profiles. A joined profile is kept verbatim.
struct JPEGMetadata: Sendable {
    /// The TIFF-structured EXIF block (starting at `II`/`MM`).
    var exif: [UInt8]?
    /// The orientation the EXIF block declares, `.up` when none or invalid.
    var orientation: Orientation = .up
    /// Whether an orientation tag was present (valid or not).
    var declaresOrientation = false
    /// The joined ICC profile.
    var iccProfile: [UInt8]?
    /// Notes for `metadata.properties`.
    var notes: [String: String] = [:]
    /// Broken metadata that was dropped, for `metadata.warnings`.
    var warnings: [String] = []

    /// The signature of an ICC chunk: "ICC_PROFILE" and a NUL.
    static let iccSignature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    init(markers: JPEGMarkers, bytes: [UInt8]) {
        if let app1 = markers.applicationData(1, signature: EXIF.jpegPrefix, in: bytes).first {
            let block = Array(app1.data)
            if let defect = EXIF.defect(in: block) {
                warnings.append("JPEG APP1 EXIF at byte \(app1.offset) ignored: \(defect)")
            } else {
                exif = block
            }
            if exif != nil, let value = EXIF.orientationValue(in: block) {
                declaresOrientation = true
                if let o = Orientation(exifValue: value) {
                    orientation = o
                } else {
                    notes["exif.orientation"] = "value \(value) is outside 1…8, treated as 1"
                }
            }
        }
        let chunks = markers.applicationData(2, signature: Self.iccSignature, in: bytes)
        if !chunks.isEmpty {
            switch Self.joinICC(chunks) {
            case .success(let joined):
                iccProfile = joined.profile
                if let note = joined.note { notes["jpeg.icc"] = note }
            case .failure(let reason): warnings.append("JPEG APP2 ICC profile ignored: \(reason.text)")
            }
        }
    }

    /// Why a set of ICC chunks cannot be joined.
    struct ICCProblem: Error { var text: String }

    /// Joins ICC chunks (payload after the signature: sequence, count, data) in sequence order.
    static func joinICC(_ chunks: [(offset: Int, data: ArraySlice<UInt8>)]) -> Result<(profile: [UInt8], note: String?), ICCProblem> {
        var parts: [Int: ArraySlice<UInt8>] = [:]
        var declaredCount: Int?
        var note: String?
        for chunk in chunks {
            guard chunk.data.count >= 2 else {
                return .failure(ICCProblem(text: "APP2 chunk at byte \(chunk.offset) has no sequence number and count"))
            }
            let sequence = Int(chunk.data[chunk.data.startIndex])
            let count = Int(chunk.data[chunk.data.startIndex + 1])
            guard count > 0, (1...count).contains(sequence) else {
                return .failure(ICCProblem(text: "APP2 chunk at byte \(chunk.offset) is number \(sequence) of \(count)"))
            }
            if let declaredCount, declaredCount != count {
                return .failure(ICCProblem(text: "APP2 chunk at byte \(chunk.offset) says \(count) chunks, an earlier one \(declaredCount)"))
            }
            declaredCount = count
            if let earlier = parts[sequence] {
                guard earlier.elementsEqual(chunk.data.dropFirst(2)) else {
                    return .failure(ICCProblem(text: "APP2 chunk number \(sequence) appears twice with different bytes (again at byte \(chunk.offset))"))
                }
                note = "APP2 chunk number \(sequence) repeated at byte \(chunk.offset) with the same bytes; read once"
                continue
            }
            parts[sequence] = chunk.data.dropFirst(2)
        }
        guard let count = declaredCount, parts.count == count else {
            return .failure(ICCProblem(text: "\(parts.count) of \(declaredCount ?? 0) chunks present"))
        }
        var profile: [UInt8] = []
        for sequence in 1...count { profile += parts[sequence] ?? [] }
        return .success((profile, note))
    }
}
