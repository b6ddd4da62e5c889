import { ScreenTitle } from '../../ui/kit';
import type { ScreenDefinition } from '../screen';

function TasksScreen() {
  return <ScreenTitle>Tasks</ScreenTitle>;
}

export const tasksScreen: ScreenDefinition = { path: 'tasks', label: 'Tasks', needs: ['workflow.task.view'], component: TasksScreen };
