package dev.tributary.crawler.fetch;

/** What a fetch ended in: a response to use ({@link FetchResult}) or a classified {@link FetchFailure}. */
public sealed interface FetchOutcome permits FetchResult, FetchFailure {
}
