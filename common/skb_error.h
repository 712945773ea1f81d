/* skb_error.h — the error codes every layer returns (bottom layer: methods/
 * and common/ both use them; skb_strerror in methods/registry.c names them). */
#ifndef SKB_ERROR_H
#define SKB_ERROR_H

/* error codes: negative, one table gives the messages (skb_strerror) */
#define SKB_ERRORS(X) \
    X(SKB_EINVAL,      -1, "invalid argument") \
    X(SKB_ENONFINITE,  -2, "non-finite number") \
    X(SKB_ENOTRIGID,   -3, "matrix is not rigid") \
    X(SKB_EWEIGHTS,    -4, "weights are negative or do not sum to 1") \
    X(SKB_ETOOMANY,    -5, "more transforms than the method supports") \
    X(SKB_ECANCEL,     -6, "blend cancels (antipodal inputs, vanishing quaternion sum)") \
    X(SKB_ENOCENTER,   -7, "method needs a rotation centre") \
    X(SKB_ENOMEM,      -8, "out of memory") \
    X(SKB_EIO,         -9, "input/output error") \
    X(SKB_EPARSE,     -10, "malformed input") \
    X(SKB_ENOTSUP,    -11, "not supported by this method") \
    X(SKB_ENOCONV,    -12, "iteration did not converge") \
    X(SKB_ENUMERIC,   -13, "numerical failure")
#define SKB__ENUM(name, val, msg) name = (val),
enum skb_error { SKB_OK = 0, SKB_ERRORS(SKB__ENUM) };
#undef SKB__ENUM

#endif
