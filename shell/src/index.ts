// Async boundary: lets Module Federation negotiate shared singletons before any import runs.
void import('./bootstrap.js');
