#ifndef IMGLAB_CMS_H
#define IMGLAB_CMS_H
/* Little CMS for imglab's colour management: one call converts 16-bit samples tagged with an
 * embedded ICC profile to sRGB. Errors (a profile lcms cannot parse, a colour space that does
 * not match the samples, a transform it cannot build) come back as a status and a message;
 * lcms reports them through a per-call context's log handler and never longjmps. */
#include <stddef.h>
#include <stdint.h>

/* Converts `pixels` samples of `channels` interleaved 16-bit values (1 gray, 2 gray + alpha,
 * 3 RGB, 4 RGB + alpha; with `cmyk` 1, 4 CMYK values, or with `cmyk` 2 4 CMYK values stored
 * inverted as Adobe's JPEGs store them) described by the ICC `profile` to sRGB (relative
 * colorimetric intent), writing 3 (or 4 with alpha, copied) 16-bit values per pixel to `out`.
 * Returns 0 on success, otherwise -1 with a message in `error` (at most `error_size` bytes,
 * NUL-terminated). */
int imglab_cms_to_srgb16(const uint8_t *profile, size_t profile_size, int channels, int cmyk,
                         const uint16_t *in, uint16_t *out, size_t pixels, char *error, size_t error_size);

/* The inverse of imglab_cms_to_srgb16: `pixels` sRGB colours (3 16-bit values, 4 with alpha when
 * the profile's samples have alpha, copied) converted into the samples `profile` describes
 * (`channels` and `cmyk` as above), relative colorimetric, colours outside its gamut clipped.
 * Returns 0 on success, otherwise -1 with a message in `error`. */
int imglab_cms_from_srgb16(const uint8_t *profile, size_t profile_size, int channels, int cmyk,
                           const uint16_t *in, uint16_t *out, size_t pixels, char *error, size_t error_size);

/* Reads a matrix/TRC profile for the Swift conversion: `colorants` gets the profile's red, green
 * and blue colorants (XYZ columns, adapted to the D50 PCS, row-major 3x3) and `srgb_colorants`
 * those of Little CMS's sRGB, and `curves` the tone curves sampled at the 65536 16-bit input
 * codes (3 curves for RGB, 1 for gray), each value the linear output (0...1). `channels` is 3 or 1.
 * Returns 0 on success, 1 when the profile is not a matrix/TRC profile of that colour space
 * (the caller then uses imglab_cms_to_srgb16), -1 with a message when it cannot be read. */
int imglab_cms_matrix_shaper(const uint8_t *profile, size_t profile_size, int channels, double colorants[9],
                             double srgb_colorants[9], float *curves, char *error, size_t error_size);

/* Writes into `out` (at most `out_size` bytes) the ICC profile lcms builds for an RGB space of
 * the given white and primaries (CIE 1931 x, y), or with `gray` a gray space of that white,
 * with lcms's parametric tone curve of type 4, `curve` = { g, a, b, c, d }: Y = (aX + b)^g for X >= d, cX below (a pure power is
 * { g, 1, 0, 0, 0 }; PNG's gAMA and cHRM chunks and the H.273 codes of cICP state these).
 * `description` (ASCII; NULL keeps Little CMS's own) names the profile; `version2` writes ICC v2.1
 * (tone curves as curv tables) instead of Little CMS's v4.3.
 * Returns the profile's size, 0 on failure or when it does not fit. */
size_t imglab_cms_display_profile(int gray, double white_x, double white_y, const double primaries[6], const double curve[5],
                                  const char *description, int version2, uint8_t *out, size_t out_size);

/* Writes into `out` (at most `out_size` bytes) a CMYK output profile (ICC v4.3, PCS Lab) whose
 * AToB0 is a `grid`^4 table: `srgb_table` holds, for each grid point (C slowest, then M, Y, K;
 * ink 0...1 in `grid` steps), the 16-bit sRGB colour it prints as (3 values), which lcms
 * converts to Lab. Returns the profile's size, 0 on failure or when it does not fit. */
size_t imglab_cms_cmyk_profile(int grid, const uint16_t *srgb_table, uint8_t *out, size_t out_size);

#endif
