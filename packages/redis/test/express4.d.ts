// express@4 installed under an alias for the compatibility run; typed as express 5 in the test.
declare module 'express4';
