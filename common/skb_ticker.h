/* skb_ticker.h — a line of progress every few seconds from a thread of its
 * own, while long work prints nothing (Google Benchmark's timing, an
 * experiment under callgrind).  The thread only sleeps on a condition
 * variable and calls line(); it touches no timed data.
 *   skb_ticker_interval  the seconds the environment variable env gives
 *                        (tests set a short one), else the caller's default
 *   skb_ticker_start     line(arg, elapsed seconds) every `every` seconds
 *   skb_ticker_stop      stops and joins the thread */
#ifndef SKB_TICKER_H
#define SKB_TICKER_H

#include <pthread.h>

struct skb_ticker {
    void (*line)(void *arg, double elapsed_s);
    void *arg;
    double every;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, started;
    pthread_t th;
};

double skb_ticker_interval(const char *env, double dflt);
/* no thread (started 0) when it cannot be made: progress is optional */
void skb_ticker_start(struct skb_ticker *t, double every, void (*line)(void *arg, double elapsed_s), void *arg);
void skb_ticker_stop(struct skb_ticker *t);

#endif
