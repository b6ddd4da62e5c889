import { Route, Routes } from 'react-router';
import type { ScreenDefinition } from '../screen';
import { TaskDetail } from './TaskDetail';
import { TaskInbox } from './TaskInbox';
import './tasks.css';

/**
 * Tasks (the bar: Camunda Tasklist): the signed-in user's todo and done inboxes, a task's detail with
 * the instance's business data, its progress graph and history, and the actions approve, reject,
 * transfer and delegate. Everything through `/api/workflow/**` as the user.
 */
function TasksScreen() {
  return (
    <Routes>
      <Route index element={<TaskInbox />} />
      <Route path=":taskId" element={<TaskDetail />} />
    </Routes>
  );
}

export const tasksScreen: ScreenDefinition = { path: 'tasks', label: 'Tasks', needs: ['workflow.task.view'], component: TasksScreen };
