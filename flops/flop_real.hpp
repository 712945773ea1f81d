/* flop_real.hpp — a double that counts the floating-point operations done on it.
 *
 * The FLOP experiment recompiles every methods/ source as C++ with this header forced in
 * (g++ -x c++ -include flops/flop_real.hpp): the prelude at the bottom binds
 * skb_real to skb::flop, so every add, multiply, divide, square root,
 * transcendental call and comparison the methods execute is counted (thesis 4.4
 * counts FLOPs of the whole 4x4 -> internal -> 4x4 blend).  Conversions to and
 * from double are free and explicit, so code that leaves skb_real (GSL's SVD)
 * is visibly not instrumented.
 *
 * The counters are one per process (a function-local static): the counting
 * build is a single-threaded measuring tool, never linked into libskb.
 * Define SKB_FLOP_NO_PRELUDE to get the class without the typedef (tests).
 *
 * The counting rules, stated once here (flop_rules() below gives them to
 * flops.json "counting_rules" and the report; thesis 4.4 / Table 4.1):
 *   FLOPs        a + b, a - b, a * b: 1 each (the Table 4.1 figure is their sum)
 *   separately   a / b, sqrt, each transcendental call (sin cos tan asin acos
 *                atan atan2 exp log pow): counted and reported, not in FLOPs
 *   free         -a (a sign flip: write a negation, never a * -1, which the
 *                counter charges as a multiplication), +a, copies, conversions
 *                to and from double, literals; comparisons (< > <= >= == !=,
 *                fmin, fmax) and fabs are counted apart as non-FLOPs.
 * The counter is never special-cased: it sees only the operators below. */
#ifndef SKB_FLOP_REAL_HPP
#define SKB_FLOP_REAL_HPP

#include <cmath>
#include <cstring>
#include <type_traits>

namespace skb {

/* transcendental functions counted one by one */
enum flop_fn { FN_SIN, FN_COS, FN_TAN, FN_ASIN, FN_ACOS, FN_ATAN, FN_ATAN2, FN_EXP, FN_LOG,
               FN_POW, FN_COUNT };

struct flop_counts {
    unsigned long long add;     /* additions and subtractions */
    unsigned long long mul;
    unsigned long long div;
    unsigned long long sqrt;
    unsigned long long fn[FN_COUNT];
    unsigned long long cmp;     /* <, >, <=, >=, ==, !=, fmin, fmax */
    unsigned long long neg;     /* unary minus (a sign flip, not a FLOP) */
    unsigned long long abs;     /* fabs (not a FLOP) */
};

inline flop_counts &flop_counter()
{
    static flop_counts c;
    return c;
}

inline void flop_reset() { std::memset(&flop_counter(), 0, sizeof(flop_counts)); }

inline unsigned long long flop_transcendental(const flop_counts &c)
{
    unsigned long long s = 0;
    for (int i = 0; i < FN_COUNT; i++)
        s += c.fn[i];
    return s;
}

inline const char *flop_fn_name(int i)
{
    static const char *const names[FN_COUNT] = { "sin", "cos", "tan", "asin", "acos", "atan",
                                                 "atan2", "exp", "log", "pow" };
    return names[i];
}

/* the rules above as data: {class, operations, how counted} */
struct flop_rule { const char *cls; const char *ops; const char *how; };
inline const flop_rule *flop_rules(int *n)
{
    static const flop_rule rules[] = {
        { "flops", "a + b, a - b (add), a * b (mul)", "1 FLOP each; the Table 4.1 figure is add + mul" },
        { "separate", "a / b (div), sqrt, transcendental calls (sin cos tan asin acos atan atan2 exp log pow)",
          "counted and reported per kind, not in the FLOP figure (flops_all adds them as 1 each)" },
        { "free", "negation -a, unary +a, copies, conversions to/from double, literals",
          "not counted as FLOPs (negations tallied in 'neg'); a sign flip written as a * -1 is a mul" },
        { "not_flops", "comparisons < > <= >= == != fmin fmax (cmp), fabs (abs)",
          "tallied apart, not FLOPs" },
    };
    *n = (int)(sizeof rules / sizeof rules[0]);
    return rules;
}

class flop {
public:
    double v;

    flop() = default;                         /* trivial: arrays, memset, memcpy work */
    template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    flop(T x) : v((double)x) {}               /* literals and doubles convert freely */
    template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    explicit operator T() const { return (T)v; }

    friend flop operator+(flop a, flop b) { flop_counter().add++; return flop(a.v + b.v); }
    friend flop operator-(flop a, flop b) { flop_counter().add++; return flop(a.v - b.v); }
    friend flop operator*(flop a, flop b) { flop_counter().mul++; return flop(a.v * b.v); }
    friend flop operator/(flop a, flop b) { flop_counter().div++; return flop(a.v / b.v); }
    friend flop operator-(flop a) { flop_counter().neg++; return flop(-a.v); }
    friend flop operator+(flop a) { return a; }
    flop &operator+=(flop b) { return *this = *this + b; }
    flop &operator-=(flop b) { return *this = *this - b; }
    flop &operator*=(flop b) { return *this = *this * b; }
    flop &operator/=(flop b) { return *this = *this / b; }

    friend bool operator<(flop a, flop b) { flop_counter().cmp++; return a.v < b.v; }
    friend bool operator>(flop a, flop b) { flop_counter().cmp++; return a.v > b.v; }
    friend bool operator<=(flop a, flop b) { flop_counter().cmp++; return a.v <= b.v; }
    friend bool operator>=(flop a, flop b) { flop_counter().cmp++; return a.v >= b.v; }
    friend bool operator==(flop a, flop b) { flop_counter().cmp++; return a.v == b.v; }
    friend bool operator!=(flop a, flop b) { flop_counter().cmp++; return a.v != b.v; }

    /* found by argument-dependent lookup from unqualified calls in methods/ */
    friend flop sqrt(flop a) { flop_counter().sqrt++; return flop(std::sqrt(a.v)); }
    friend flop sin(flop a) { flop_counter().fn[FN_SIN]++; return flop(std::sin(a.v)); }
    friend flop cos(flop a) { flop_counter().fn[FN_COS]++; return flop(std::cos(a.v)); }
    friend flop tan(flop a) { flop_counter().fn[FN_TAN]++; return flop(std::tan(a.v)); }
    friend flop asin(flop a) { flop_counter().fn[FN_ASIN]++; return flop(std::asin(a.v)); }
    friend flop acos(flop a) { flop_counter().fn[FN_ACOS]++; return flop(std::acos(a.v)); }
    friend flop atan(flop a) { flop_counter().fn[FN_ATAN]++; return flop(std::atan(a.v)); }
    friend flop atan2(flop a, flop b) { flop_counter().fn[FN_ATAN2]++; return flop(std::atan2(a.v, b.v)); }
    friend flop exp(flop a) { flop_counter().fn[FN_EXP]++; return flop(std::exp(a.v)); }
    friend flop log(flop a) { flop_counter().fn[FN_LOG]++; return flop(std::log(a.v)); }
    friend flop pow(flop a, flop b) { flop_counter().fn[FN_POW]++; return flop(std::pow(a.v, b.v)); }
    friend flop fabs(flop a) { flop_counter().abs++; return flop(std::fabs(a.v)); }
    friend flop fmax(flop a, flop b) { flop_counter().cmp++; return flop(std::fmax(a.v, b.v)); }
    friend flop fmin(flop a, flop b) { flop_counter().cmp++; return flop(std::fmin(a.v, b.v)); }
    friend bool isfinite(flop a) { return std::isfinite(a.v); }
    friend bool isnan(flop a) { return std::isnan(a.v); }
};

static_assert(std::is_trivially_copyable<flop>::value, "flop must stay memcpy-able");
static_assert(sizeof(flop) == sizeof(double), "flop must have the layout of a double");

} /* namespace skb */

#ifndef SKB_FLOP_NO_PRELUDE
/* the prelude: methods/skb_math.h keeps this skb_real and drops extern "C" */
#define SKB_REAL_DEFINED
#define SKB_FLOP_COUNT
typedef skb::flop skb_real;
#endif

#endif
