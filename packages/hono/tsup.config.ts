import { library } from '../../tsup.shared.js';

export default library();
