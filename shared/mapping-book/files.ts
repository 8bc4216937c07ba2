/**
 * Where the book's files live and how long its feed is kept: read by the routes and the stack, so
 * kept apart from the code that reads and writes them.
 */

/** The book's generations, in the stage's files bucket (kept and backed up with the stage's data). */
export const BOOK_FILES_PREFIX = 'books/';

/**
 * What each part of the book's files says that its entries say already (its entry index and search
 * columns), in the results bucket: not backed up, since a reader makes them again from the entries
 * when they are missing (after a restore, say). A retired segment's are tagged to expire with it.
 */
export const BOOK_DERIVED_PREFIX = 'book-derived/';

/** The files of large commits of the feed, in the results bucket (its lifecycle rule expires them). */
export const BOOK_CHANGES_PREFIX = 'book-changes/';

/** How long a change stays in the feed, and so how long a position stays valid. */
export const CHANGES_RETENTION_DAYS = 30;

/** The book's export files, in the results bucket: there to be downloaded, forgotten after a week. */
export const BOOK_EXPORTS_PREFIX = 'book-exports/';

/** A ready export file is answered again this long (its object is kept a day more). */
export const EXPORT_KEPT_DAYS = 6;
