/// The space in which a resizer averages colour values: `linear` light (the oracle's and the
/// built-in resizer's choice) or the stored, gamma-encoded `srgb` values (libvips without
/// `--linear`, ImageMagick's `-resize`, Pillow).
public enum LightSpace: String, Sendable, Hashable, Codable, CaseIterable {
    case linear, srgb
}
