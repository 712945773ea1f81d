/* skb_ticker.c — progress lines from a thread of their own (skb_ticker.h) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "skb_ticker.h"
#include "skb_timing.h"

double skb_ticker_interval(const char *env, double dflt)
{
    const char *e = getenv(env);
    char *end;
    double s = e ? strtod(e, &end) : 0;
    return e && *e && !*end && s >= 0.05 && s <= 3600 ? s : dflt;
}

static void *ticker_main(void *arg)
{
    struct skb_ticker *t = arg;
    struct timespec wake;
    double elapsed = 0;
    skb_deadline_in(0, &wake);
    pthread_mutex_lock(&t->mu);
    for (int timed_out = 1; !t->stop;) {
        if (timed_out) {   /* the next deadline; a spurious wakeup keeps it */
            long ns = wake.tv_nsec + (long)(t->every * 1e9);
            wake.tv_sec += ns / 1000000000L;
            wake.tv_nsec = ns % 1000000000L;
        }
        timed_out = pthread_cond_timedwait(&t->cv, &t->mu, &wake) == ETIMEDOUT;
        if (timed_out && !t->stop) {
            elapsed += t->every;
            t->line(t->arg, elapsed);
        }
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

void skb_ticker_start(struct skb_ticker *t, double every, void (*line)(void *arg, double elapsed_s), void *arg)
{
    memset(t, 0, sizeof *t);
    t->line = line;
    t->arg = arg;
    t->every = every > 0 ? every : 5;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->started = pthread_create(&t->th, NULL, ticker_main, t) == 0;
}

void skb_ticker_stop(struct skb_ticker *t)
{
    pthread_mutex_lock(&t->mu);
    t->stop = 1;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    if (t->started)
        pthread_join(t->th, NULL);
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
}
