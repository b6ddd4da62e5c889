import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

function JobsScreen() {
  return <ScreenTitle>Jobs</ScreenTitle>;
}

export const jobsScreen: ScreenDefinition = { path: 'jobs', label: 'Jobs', needs: ['operations.jobs.view'], component: JobsScreen };
