/// One measured metric: its value (or `nil` when it is not defined for these images, e.g.
/// MS-SSIM below 176 pixels or any pixel metric when the sizes differ), with its unit and
/// definition version so a stored number can never be compared across definitions.
public struct MetricValue: Sendable, Hashable, Codable {
    /// The value in ``unit``; `nil` when not defined. PSNR is +∞ for identical images.
    public var value: Double?
    /// Unit of the value.
    public var unit: String
    /// Definition version.
    public var version: String
    /// Why the value is missing, when it is.
    public var missingReason: String?

    public init(value: Double?, unit: String, version: String, missingReason: String? = nil) {
        self.value = value
        self.unit = unit
        self.version = version
        self.missingReason = missingReason
    }
}
