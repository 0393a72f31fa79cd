// An async boundary: Module Federation settles the shared React before any of it runs.
void import('./bootstrap.js');
