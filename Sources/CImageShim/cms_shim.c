#include "imglab_cms.h"
#include <lcms2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *error;
    size_t error_size;
} imglab_cms_log;

static void imglab_cms_log_handler(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)code;
    imglab_cms_log *log = (imglab_cms_log *)cmsGetContextUserData(context);
    if (log && log->error && log->error_size > 0 && log->error[0] == '\0') {
        snprintf(log->error, log->error_size, "%s", text ? text : "Little CMS error");
    }
}

static int imglab_cms_fail(char *error, size_t error_size, const char *why) {
    if (error && error_size > 0 && error[0] == '\0') snprintf(error, error_size, "%s", why);
    return -1;
}

/* One transform between the profile's samples (`channels`, `cmyk` as imglab_cms_to_srgb16
 * says) and sRGB (3 values, or 4 with alpha copied), in the direction `to_srgb` says. */
static int imglab_cms_transform16(const uint8_t *profile, size_t profile_size, int channels, int cmyk, int to_srgb,
                                  const uint16_t *in, uint16_t *out, size_t pixels, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if (channels < 1 || channels > 4 || (cmyk && channels != 4)) return imglab_cms_fail(error, error_size, "unsupported channel count");
    if (profile_size == 0 || profile_size > 0x7fffffff) return imglab_cms_fail(error, error_size, "empty or oversized profile");
    imglab_cms_log log = { error, error_size };
    cmsContext context = cmsCreateContext(NULL, &log);
    if (!context) return imglab_cms_fail(error, error_size, "cannot create a Little CMS context");
    cmsSetLogErrorHandlerTHR(context, imglab_cms_log_handler);
    int status = -1;
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(context, profile, (cmsUInt32Number)profile_size);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    cmsHTRANSFORM transform = NULL;
    if (!source) {
        imglab_cms_fail(error, error_size, "Little CMS cannot read the profile");
    } else if (!srgb) {
        imglab_cms_fail(error, error_size, "Little CMS cannot build sRGB");
    } else {
        cmsColorSpaceSignature space = cmsGetColorSpace(source);
        int gray = channels <= 2;
        if (cmyk && space != cmsSigCmykData) {
            imglab_cms_fail(error, error_size, "the profile is not a CMYK profile, the samples are CMYK");
        } else if (!cmyk && ((gray && space != cmsSigGrayData) || (!gray && space != cmsSigRgbData))) {
            imglab_cms_fail(error, error_size, gray ? "the profile is not a gray profile, the samples are gray"
                                                    : "the profile is not an RGB profile, the samples are RGB");
        } else {
            int alpha = !cmyk && (channels == 2 || channels == 4);
            cmsUInt32Number samples = cmyk ? (cmyk == 2 ? TYPE_CMYK_16_REV : TYPE_CMYK_16)
                : gray ? (alpha ? TYPE_GRAYA_16 : TYPE_GRAY_16) : (alpha ? TYPE_RGBA_16 : TYPE_RGB_16);
            cmsUInt32Number rgb = alpha ? TYPE_RGBA_16 : TYPE_RGB_16;
            cmsUInt32Number flags = (alpha ? cmsFLAGS_COPY_ALPHA : 0) | cmsFLAGS_NOOPTIMIZE;
            transform = to_srgb ? cmsCreateTransformTHR(context, source, samples, srgb, rgb, INTENT_RELATIVE_COLORIMETRIC, flags)
                                : cmsCreateTransformTHR(context, srgb, rgb, source, samples, INTENT_RELATIVE_COLORIMETRIC, flags);
            if (!transform) {
                imglab_cms_fail(error, error_size, to_srgb ? "Little CMS cannot build a transform from the profile to sRGB"
                                                           : "Little CMS cannot build a transform from sRGB to the profile");
            } else {
                /* cmsDoTransform counts pixels in a 32-bit number: convert in slices. */
                const size_t slice = 1u << 20;
                size_t in_stride = to_srgb ? (size_t)channels : (alpha ? 4u : 3u);
                size_t out_stride = to_srgb ? (alpha ? 4u : 3u) : (size_t)channels;
                for (size_t done = 0; done < pixels; done += slice) {
                    size_t count = pixels - done < slice ? pixels - done : slice;
                    cmsDoTransform(transform, in + done * in_stride, out + done * out_stride, (cmsUInt32Number)count);
                }
                status = 0;
            }
        }
    }
    if (transform) cmsDeleteTransform(transform);
    if (srgb) cmsCloseProfile(srgb);
    if (source) cmsCloseProfile(source);
    cmsDeleteContext(context);
    return status;
}

int imglab_cms_to_srgb16(const uint8_t *profile, size_t profile_size, int channels, int cmyk,
                         const uint16_t *in, uint16_t *out, size_t pixels, char *error, size_t error_size) {
    return imglab_cms_transform16(profile, profile_size, channels, cmyk, 1, in, out, pixels, error, error_size);
}

int imglab_cms_from_srgb16(const uint8_t *profile, size_t profile_size, int channels, int cmyk,
                           const uint16_t *in, uint16_t *out, size_t pixels, char *error, size_t error_size) {
    return imglab_cms_transform16(profile, profile_size, channels, cmyk, 0, in, out, pixels, error, error_size);
}

size_t imglab_cms_display_profile(int gray, double white_x, double white_y, const double primaries[6], const double curve_parameters[5],
                                  const char *description, int version2, uint8_t *out, size_t out_size) {
    double gamma = curve_parameters[0];
    if (!(gamma > 0.05 && gamma < 20)) return 0;
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (!context) return 0;
    cmsCIExyY white = { white_x, white_y, 1.0 };
    cmsCIExyYTRIPLE rgb = { { primaries[0], primaries[1], 1.0 }, { primaries[2], primaries[3], 1.0 }, { primaries[4], primaries[5], 1.0 } };
    cmsToneCurve *curve = cmsBuildParametricToneCurve(context, 4, curve_parameters);
    size_t written = 0;
    if (curve) {
        cmsToneCurve *curves[3] = { curve, curve, curve };
        cmsHPROFILE profile = gray ? cmsCreateGrayProfileTHR(context, &white, curve)
                                   : cmsCreateRGBProfileTHR(context, &white, &rgb, curves);
        if (profile) {
            cmsMLU *name = description ? cmsMLUalloc(context, 1) : NULL;
            if (name && cmsMLUsetASCII(name, "en", "US", description)) cmsWriteTag(profile, cmsSigProfileDescriptionTag, name);
            if (name) cmsMLUfree(name);
            /* ICC v2.1 writes each tone curve as a curv table (v2 has no parametric curves). */
            if (version2) cmsSetProfileVersion(profile, 2.1);
            cmsUInt32Number size = 0;
            if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && size <= out_size &&
                cmsSaveProfileToMem(profile, out, &size)) {
                written = size;
            }
            cmsCloseProfile(profile);
        }
        cmsFreeToneCurve(curve);
    }
    cmsDeleteContext(context);
    return written;
}

static int imglab_cms_colorants(cmsHPROFILE profile, double out[9]) {
    const cmsTagSignature tags[3] = { cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag };
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xyz = (const cmsCIEXYZ *)cmsReadTag(profile, tags[c]);
        if (!xyz) return -1;
        out[0 * 3 + c] = xyz->X;
        out[1 * 3 + c] = xyz->Y;
        out[2 * 3 + c] = xyz->Z;
    }
    return 0;
}

int imglab_cms_matrix_shaper(const uint8_t *profile, size_t profile_size, int channels, double colorants[9],
                             double srgb_colorants[9], float *curves, char *error, size_t error_size) {
    if (error && error_size > 0) error[0] = '\0';
    if ((channels != 1 && channels != 3) || profile_size == 0 || profile_size > 0x7fffffff)
        return imglab_cms_fail(error, error_size, "unsupported channel count or profile size");
    imglab_cms_log log = { error, error_size };
    cmsContext context = cmsCreateContext(NULL, &log);
    if (!context) return imglab_cms_fail(error, error_size, "cannot create a Little CMS context");
    cmsSetLogErrorHandlerTHR(context, imglab_cms_log_handler);
    int status = 1;
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(context, profile, (cmsUInt32Number)profile_size);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    if (!source || !srgb) {
        status = imglab_cms_fail(error, error_size, "Little CMS cannot read the profile");
    } else if (cmsGetColorSpace(source) == (channels == 1 ? cmsSigGrayData : cmsSigRgbData) && cmsIsMatrixShaper(source)
               && cmsGetPCS(source) == cmsSigXYZData && !cmsIsTag(source, cmsSigAToB0Tag) && !cmsIsTag(source, cmsSigAToB1Tag)) {
        /* Without A2B tables, Little CMS converts such a profile by its colorants and curves alone. */
        const cmsTagSignature trc[3] = { channels == 1 ? cmsSigGrayTRCTag : cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag };
        int ok = imglab_cms_colorants(srgb, srgb_colorants) == 0 && (channels == 1 || imglab_cms_colorants(source, colorants) == 0);
        for (int c = 0; ok && c < channels; c++) {
            const cmsToneCurve *curve = (const cmsToneCurve *)cmsReadTag(source, trc[c]);
            if (!curve) { ok = 0; break; }
            for (int v = 0; v < 65536; v++) curves[c * 65536 + v] = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)(v / 65535.0));
        }
        status = ok ? 0 : 1;
    }
    if (srgb) cmsCloseProfile(srgb);
    if (source) cmsCloseProfile(source);
    cmsDeleteContext(context);
    return status;
}

size_t imglab_cms_cmyk_profile(int grid, const uint16_t *srgb_table, uint8_t *out, size_t out_size) {
    if (grid < 2 || grid > 33) return 0;
    size_t entries = (size_t)grid * grid * grid * grid;
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (!context) return 0;
    size_t written = 0;
    uint16_t *lab = malloc(entries * 3 * sizeof(uint16_t));
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(context);
    cmsHPROFILE lab_profile = cmsCreateLab4ProfileTHR(context, NULL);
    cmsHTRANSFORM to_lab = (srgb && lab_profile) ? cmsCreateTransformTHR(context, srgb, TYPE_RGB_16, lab_profile, TYPE_Lab_16,
                                                                         INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE) : NULL;
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(context);
    cmsPipeline *pipeline = cmsPipelineAlloc(context, 4, 3);
    if (lab && to_lab && profile && pipeline) {
        cmsDoTransform(to_lab, srgb_table, lab, (cmsUInt32Number)entries);
        /* lutAtoBType needs its A and B curves around the table: identities. */
        cmsStage *a_curves = cmsStageAllocToneCurves(context, 4, NULL);
        cmsStage *clut = cmsStageAllocCLut16bit(context, (cmsUInt32Number)grid, 4, 3, lab);
        cmsStage *b_curves = cmsStageAllocToneCurves(context, 3, NULL);
        cmsMLU *description = cmsMLUalloc(context, 1);
        int built = a_curves && clut && b_curves && description
            && cmsPipelineInsertStage(pipeline, cmsAT_END, a_curves)
            && cmsPipelineInsertStage(pipeline, cmsAT_END, clut)
            && cmsPipelineInsertStage(pipeline, cmsAT_END, b_curves);
        if (built) {
            cmsSetProfileVersion(profile, 4.3);
            cmsSetDeviceClass(profile, cmsSigOutputClass);
            cmsSetColorSpace(profile, cmsSigCmykData);
            cmsSetPCS(profile, cmsSigLabData);
            cmsMLUsetASCII(description, "en", "US", "imglab CMYK (naive inks with dot gain)");
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
            cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
            cmsWriteTag(profile, cmsSigAToB0Tag, pipeline);
            /* The colorimetric and saturation intents share the table, as a press profile's do:
             * readers that ask for the relative intent (libvips) find it instead of a fallback. */
            cmsLinkTag(profile, cmsSigAToB1Tag, cmsSigAToB0Tag);
            cmsLinkTag(profile, cmsSigAToB2Tag, cmsSigAToB0Tag);
            cmsUInt32Number size = 0;
            if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && size <= out_size && cmsSaveProfileToMem(profile, out, &size)) {
                written = size;
            }
        } else {
            /* Stages the pipeline took are freed with it; free only the ones it never got. */
            if (a_curves && cmsPipelineStageCount(pipeline) < 1) cmsStageFree(a_curves);
            if (clut && cmsPipelineStageCount(pipeline) < 2) cmsStageFree(clut);
            if (b_curves && cmsPipelineStageCount(pipeline) < 3) cmsStageFree(b_curves);
        }
        if (description) cmsMLUfree(description);
    }
    if (pipeline) cmsPipelineFree(pipeline);
    if (profile) cmsCloseProfile(profile);
    if (to_lab) cmsDeleteTransform(to_lab);
    if (lab_profile) cmsCloseProfile(lab_profile);
    if (srgb) cmsCloseProfile(srgb);
    free(lab);
    cmsDeleteContext(context);
    return written;
}
