/// The operation names of corpus manifest version 1, and of the results, goldens and resizer
/// configs written against it, each with its current spelling (``LabOperation``'s one name per
/// operation). Readers of such files map through these functions, so a file in the version-1
/// spelling keeps working; every function returns a current name unchanged, so mapping twice is
/// mapping once.
///
/// | version 1 | current |
/// |-----------|---------|
/// | kind `thumbnail`, id `thumb-24-b2-r6` | `squareThumbnail`, `squareThumbnail-24-b2-r6` |
/// | id `corners-r8-b0` | `roundedCorners-r8-b0` |
/// | id `border-3` | `transparentBorder-3` |
/// | id `maxpx-40` | `maxPixelSize-40` |
/// | mode `stretch`, id `stretch-31x17` | `scaleToFill`, `resize-scaleToFill-31x17` |
/// | mode `fit`, id `fit-24x24` | `aspectFit`, `resize-aspectFit-24x24` |
/// | mode `fill`, ids `fill-20x20`, `fill@0,0-20x20` | `aspectFill`, `resize-aspectFill-20x20`, `resize-aspectFill@0,0-20x20` |
/// | mode `fill-no-crop`, id `fill-no-crop-20x20` | `aspectFillWithoutCrop`, `resize-aspectFillWithoutCrop-20x20` |
///
/// The ids `orient` and `crop-…`, and the kinds other than `thumbnail`, are spelled the same in
/// both.
public enum ManifestV1Names {
    /// Version-1 content mode → current (``LabContentMode/name``).
    static let modes = ["stretch": "scaleToFill", "fit": "aspectFit", "fill": "aspectFill", "fill-no-crop": "aspectFillWithoutCrop"]

    /// Version-1 id prefix → current, longest first (`fill-no-crop-` before `fill-`).
    static let idPrefixes: [(String, String)] = [
        ("fill-no-crop-", "resize-aspectFillWithoutCrop-"), ("fill@", "resize-aspectFill@"), ("fill-", "resize-aspectFill-"),
        ("fit-", "resize-aspectFit-"), ("stretch-", "resize-scaleToFill-"), ("thumb-", "squareThumbnail-"),
        ("corners-", "roundedCorners-"), ("border-", "transparentBorder-"), ("maxpx-", "maxPixelSize-"),
    ]

    /// The current operation id (``LabOperation/id``) of a version-1 one, e.g. `fit-24x24` →
    /// `resize-aspectFit-24x24`; any other text is returned unchanged.
    public static func operationID(_ id: String) -> String {
        for (old, new) in idPrefixes where id.hasPrefix(old) { return new + id.dropFirst(old.count) }
        return id
    }

    /// The current pair id `CASE/OPERATION` of a version-1 one: the operation part (after the
    /// last `/`) mapped by ``operationID(_:)``, the case id kept.
    public static func pairID(_ pair: String) -> String {
        guard let slash = pair.lastIndex(of: "/") else { return pair }
        return pair[...slash] + operationID(String(pair[pair.index(after: slash)...]))
    }

    /// The current content mode name of a version-1 one (`fit` → `aspectFit`); others unchanged.
    public static func modeName(_ mode: String) -> String { modes[mode] ?? mode }

    /// The current spelling of an operation as a manifest kind or a declared operation
    /// (`thumbnail` → `squareThumbnail`, `resize:fit` → `resize:aspectFit`); others unchanged.
    public static func operationName(_ name: String) -> String {
        if name == "thumbnail" { return "squareThumbnail" }
        if name.hasPrefix("resize:") { return "resize:" + modeName(String(name.dropFirst("resize:".count))) }
        return name
    }
}
