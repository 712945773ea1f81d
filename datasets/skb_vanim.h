/* skb_vanim.h — vertex animations: a mesh whose every keyframe stores its
 * own vertex positions (no skeleton), the input of Skinning Arbitrary
 * Deformations (thesis ch. 7, harness/exp_sad.c).
 *   skb_vanim_md2      a Quake 2 MD2 file (8-bit packed vertices per frame)
 *   skb_vanim_curtain  a simulated mass-spring curtain in wind, fixed top edge
 *   skb_vanim_bake     a skinned dataset's clip baked through a method's skin path
 *   skb_vanim_normals  per-keyframe area-weighted normals from the triangles
 *   skb_vanim_free */
#ifndef SKB_VANIM_H
#define SKB_VANIM_H

#include <stddef.h>
#include "skb_dataset.h"

struct skb_vanim {
    char name[64];
    char source[256];
    int nverts, ntris, nframes;
    int *tris;                 /* 3*ntris */
    double *rest;              /* 3*nverts rest pose (MD2: keyframe 0; curtain: the flat sheet;
                                  baked clip: the bind pose) */
    double *rest_nrm;          /* 3*nverts */
    double *pos;               /* 3*nverts*nframes */
    double *nrm;               /* 3*nverts*nframes unit normals */
    double *qstep;             /* MD2: 3*nframes quantisation steps (the frame's scale per
                                  axis); NULL when positions are not quantised */
};

/* the largest MD2 file read (the format's own limits: 2048 vertices x 512
 * frames x 4 bytes plus triangles, about 4.3 MB) */
#define SKB_MD2_MAX_BYTES (8u << 20)

/* read an MD2 file (magic "IDP2", version 8): every frame's vertices
 * unpacked as scale * byte + translate; max_frames > 0 keeps the first ones.
 * Errors are one line naming the file and the field (no frames, a frame
 * size that does not match the vertex count, a truncated file, an index out
 * of range, not a regular file, larger than SKB_MD2_MAX_BYTES). */
int skb_vanim_md2(const char *path, int max_frames, struct skb_vanim *out, char *msg, size_t msglen);

/* the curtain: cols x rows particles (quick: a small one), top row pinned,
 * gravity, structural / shear / bend springs as distance constraints
 * (position-based, Jakobsen 2001), wind gusts whose phases and directions
 * come from the seed; nframes keyframes after a settling time */
int skb_vanim_curtain(unsigned long seed, int quick, struct skb_vanim *out, char *msg, size_t msglen);
/* the travelling wave of the curtain's wind: its relative amplitude across
 * the sheet (the wind speed times 1 + wave sin(k x - w t + phase)) */
#define SKB_CURTAIN_WAVE 0.35
/* the same with the wind's mean speed scaled by wind_scale and the wave's
 * amplitude `wave` (1 and SKB_CURTAIN_WAVE: the curtain above; the study of
 * what the fit's error grows with varies them) */
int skb_vanim_curtain_wind(unsigned long seed, int quick, double wind_scale, double wave, struct skb_vanim *out,
                           char *msg, size_t msglen);

/* every pose of d skinned by method m's double skin path (rest = d's bind pose) */
int skb_vanim_bake(const struct skb_dataset *d, const struct skb_method *m, struct skb_vanim *out,
                   char *msg, size_t msglen);

/* allocate (zeroed) arrays for nverts, ntris, nframes; SKB_ENOMEM */
int skb_vanim_alloc(struct skb_vanim *v, int nverts, int ntris, int nframes);
/* normals of pos (3*nverts) from the triangles into nrm */
void skb_vanim_normals(const struct skb_vanim *v, const double *pos, double *nrm);
void skb_vanim_free(struct skb_vanim *v);

#endif
