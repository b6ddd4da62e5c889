export { methodsAt, requestPath, routerOf, type ExpressRouter } from './route-table';
export { answerMethodNotAllowed, isReadMethod, methodNotAllowed, onlyReads, READ_METHODS, sendProblem } from './method-not-allowed';
export { JSON_CONTENT_TYPE, requireJsonContent } from './unsupported-media-type';
