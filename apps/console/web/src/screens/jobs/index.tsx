import { Route, Routes, useParams } from 'react-router';
import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';
import { JobDetail } from './JobDetail';
import { JobList } from './JobList';
import { VIEW } from './jobs-api';
import './jobs.css';

/** `/console/jobs/{jobName}` and `/console/jobs/{jobName}/run` (the run, asked for by its address). */
function JobRoute() {
  const { jobName = '', '*': rest = '' } = useParams();
  return <JobDetail key={jobName} jobName={jobName} confirmRun={rest === 'run'} />;
}

/** Background jobs (operations API `/api/operations/jobs`): list, schedule, start / stop / run now, history. */
function JobsScreen() {
  return (
    <>
      <ScreenTitle>Jobs</ScreenTitle>
      <Routes>
        <Route index element={<JobList />} />
        <Route path=":jobName/*" element={<JobRoute />} />
      </Routes>
    </>
  );
}

export const jobsScreen: ScreenDefinition = { path: 'jobs', label: 'Jobs', needs: [VIEW], component: JobsScreen };
