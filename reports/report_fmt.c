/* report_fmt.c — the small helpers every part of the report uses: text
 * formatting and reading a number or a string out of a results file.  They
 * call nothing else of reports/, so every file may call them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skb_json.h"
#include "report_internal.h"

char *skb__fmt(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s ? s : strdup("");
}

const cJSON *skb__jget(const cJSON *o, const char *k)
{
    return o && k ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

int skb__jnum(const cJSON *x, double *out)
{
    return x && skb_json_get_number(x, out) == 0 && isfinite(*out) ? 0 : -1;
}

const char *skb__jstr(const cJSON *x)
{
    return cJSON_IsString(x) ? x->valuestring : NULL;
}

char *skb__numtxt(double x)
{
    if (!isfinite(x))
        return strdup("—");
    /* counts print whole; everything else with 4 significant digits */
    if (x == floor(x) && fabs(x) < 1e12)
        return skb__fmt("%.0f", x);
    return skb__fmt("%.4g", x);
}

/* x to 4 significant digits in buf, or "not recorded" when it is not a number */
const char *skb__num4(char buf[32], double x)
{
    if (isfinite(x))
        snprintf(buf, 32, "%.4g", x);
    else
        snprintf(buf, 32, "not recorded");
    return buf;
}
